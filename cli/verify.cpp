// `ksynth verify FILE.cu [options]`: options into a driver::VerifyRequest, and the report
// out as clang-style text, one JSON object (--json) or SARIF 2.1.0 (--sarif).
#include "cli/commands.h"
#include "cli/options.h"

#include "util/deadline.h"
#include "util/exit_codes.h"
#include "util/version.h"
#include "verify/driver/driver.h"
#include "verify/driver/launch.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace ksynth::cli {

namespace {

// The whole command's limit when --timeout is not given: no hostile input runs for ever.
constexpr double kDefaultLimitS = 600;

const std::set<std::string> kKnownChecks = {"race", "barrier",  "bounds",  "overflow",   "assert",
                                            "warp", "align", "coverage", "equivalence"};

// `all` stands for every check; coverage and equivalence are kept only when a spec is given
// (driver::resolveChecks).
bool parseChecks(const std::string &s, std::set<std::string> &out, std::string &err) {
  out.clear();
  for (const std::string &c : driver::splitDims(s)) {
    if (c != "all" && !kKnownChecks.count(c)) {
      err = "unknown check '" + c + "' (known: race, barrier, bounds, overflow, assert, warp, align, coverage, equivalence)";
      return false;
    }
    out.insert(c);
  }
  return !out.empty();
}

std::string locText(const std::string &file, ir::Loc l) {
  if (!l.valid())
    return file + ":";
  return (l.file.empty() ? file : l.file) + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ":";
}

void writeSarif(const std::string &path, const std::string &file, const std::vector<driver::KernelResult> &runs) {
  nlohmann::json rules = nlohmann::json::array();
  for (auto [id, text] : std::vector<std::pair<std::string, std::string>>{
           {"race", "Data race"}, {"barrier", "Barrier divergence"}, {"bounds", "Out-of-bounds access"},
           {"overflow", "Integer overflow or division by zero"}, {"assert", "Assertion failure"},
           {"warp", "Warp primitive misused (source lane, width)"},
           {"align", "Misaligned vector access"},
           {"unsupported", "Construct not supported by the verifier"}})
    rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}});
  nlohmann::json results = nlohmann::json::array();
  auto location = [&](ir::Loc l) {
    nlohmann::json phys = {{"artifactLocation", {{"uri", l.file.empty() ? file : l.file}}}};
    if (l.valid())
      phys["region"] = {{"startLine", l.line}, {"startColumn", l.col}};
    return nlohmann::json{{"physicalLocation", phys}};
  };
  for (const driver::KernelResult &r : runs)
    for (const check::Obligation &o : r.report.obligations) {
      if (o.status == check::Status::Proven)
        continue;
      nlohmann::json res = {{"ruleId", o.kind == check::Kind::Assumptions ? "unsupported" : check::kindName(o.kind)},
                            {"level", o.status == check::Status::Refuted ? "error" : "warning"},
                            {"message", {{"text", (o.status == check::Status::Refuted ? "" : std::string(check::kindName(o.kind)) + " not proven: ") +
                                                      o.reason + " (kernel " + r.report.name + ")"}}},
                            {"locations", {location(o.loc)}}};
      nlohmann::json related = nlohmann::json::array();
      int id = 0;
      for (const check::Note &n : o.notes) {
        nlohmann::json rl = location(n.loc);
        rl["id"] = id++;
        rl["message"] = {{"text", n.text}};
        related.push_back(rl);
      }
      if (!related.empty())
        res["relatedLocations"] = related;
      results.push_back(res);
    }
  nlohmann::json doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       {{{"tool", {{"driver", {{"name", "ksynth"}, {"version", util::version()}, {"rules", rules}}}}},
         {"results", results}}}}};
  std::ofstream(path) << doc.dump(2) << "\n";
}

// --stats: the solver queries in numbers, and the slowest by name.
void printStats(const driver::FileReport &rep, std::ostream &errs) {
  nlohmann::json st = driver::queryStats(rep.kernels);
  const nlohmann::json &a = st["answers"];
  errs << "stats: " << st["queries"].get<size_t>() << " solver queries (" << a["unsat"].get<int>() << " unsat, "
       << a["sat"].get<int>() << " sat, " << a["unknown"].get<int>() << " unknown; " << st["repeated"].get<int>()
       << " asked before, answered from memory; " << st["sliced"].get<int>() << " asked over their slice), " << static_cast<long>(st["solver_ms"].get<double>()) << " ms in the solver, " << st["written"].get<int>()
       << " written as files\n";
  for (const nlohmann::json &q : st["slowest"])
    errs << "stats:   " << static_cast<long>(q["time_ms"].get<double>()) << " ms  " << q["name"].get<std::string>()
         << " (" << q["status"].get<std::string>() << ")\n";
}

// The report as clang-style diagnostics, one summary line per kernel and the verdict.
int printText(const driver::FileReport &rep, std::ostream &outs) {
  for (const std::string &n : rep.headerNotes)
    outs << "ksynth: note: " << n << "\n";
  for (const driver::KernelResult &r : rep.kernels) {
    for (const frontend::Diagnostic &d : r.notes)
      outs << d.file << ":" << d.line << ":" << d.col << ": " << d.severity << ": " << d.message << "\n";
    for (const check::Obligation &o : r.report.obligations) {
      if (o.status == check::Status::Refuted) {
        outs << locText(rep.file, o.loc) << " error: " << o.reason << " [" << check::kindName(o.kind) << "]\n";
        for (const check::Note &n : o.notes)
          outs << locText(rep.file, n.loc) << " note: " << n.text << "\n";
      } else if (o.status == check::Status::Unknown) {
        outs << locText(rep.file, o.loc) << " warning: " << o.name << " not proven: " << o.reason << " ["
                  << check::kindName(o.kind) << "]\n";
      } else if (o.status == check::Status::Bounded) {
        outs << locText(rep.file, o.loc) << " warning: " << o.name << " bounded, not proven: " << o.reason << " ["
                  << check::kindName(o.kind) << "]\n";
      }
    }
    std::map<std::string, std::pair<int, int>> byKind; // proven, total
    for (const check::Obligation &o : r.report.obligations) {
      auto &p = byKind[check::kindName(o.kind)];
      p.second++;
      if (o.status == check::Status::Proven)
        p.first++;
    }
    outs << "kernel " << r.report.name << " [" << r.report.launch << "]: " << check::statusName(r.report.verdict);
    std::string sep = " (";
    for (auto &[kind, p] : byKind) {
      outs << sep << kind << " " << p.first << "/" << p.second << " proven";
      sep = ", ";
    }
    outs << (byKind.empty() ? "" : ")") << "\n";
    for (const std::string &a : r.report.abstractions)
      outs << "  abstraction: " << a << "\n";
    // What the proofs assumed beyond the spec's own preconditions (those are the user's).
    for (const std::string &a : r.report.assumptions)
      if (a.rfind("spec ", 0) != 0 && a.rfind("--assume ", 0) != 0)
        outs << "  assuming: " << a << "\n";
  }
  std::string up = check::statusName(rep.verdict);
  for (char &c : up)
    c = static_cast<char>(toupper(c));
  outs << "VERDICT: " << up << "\n";
  return rep.exitCode();
}

// The options of `ksynth verify`; false (the usage error printed) on a bad one.
struct Parsed {
  driver::VerifyRequest req;
  bool json = false;
  std::string sarif;
};

std::optional<int> parseVerifyArgs(const std::vector<std::string> &args, Parsed &p, std::ostream &errs) {
  driver::VerifyRequest &va = p.req;
  va.command = args;
  va.limitS = kDefaultLimitS; // --timeout
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    auto number = [&](const std::string &flag, double lo, double hi) {
      auto v = opt.value(flag);
      return v ? parseNumber(*v, lo, hi) : std::nullopt;
    };
    if (opt.is("--block") || opt.is("--blockDim")) {
      auto v = opt.value(opt.is("--block") ? "--block" : "--blockDim");
      if (!v)
        return usage(a + " needs a value", errs);
      va.block = driver::splitDims(*v);
      va.blockSet = true;
    } else if (opt.is("--grid") || opt.is("--gridDim")) {
      auto v = opt.value(opt.is("--grid") ? "--grid" : "--gridDim");
      if (!v)
        return usage(a + " needs a value", errs);
      va.grid = driver::splitDims(*v);
      va.gridSet = true;
    } else if (std::string err; preprocessorOption(opt, va.fe, err)) {
      if (!err.empty())
        return usage(err, errs);
    } else if (opt.is("--kernel")) {
      auto v = opt.value("--kernel");
      if (!v)
        return usage("--kernel needs a name", errs);
      va.kernel = *v;
    } else if (opt.is("--checks")) {
      auto v = opt.value("--checks");
      std::string err;
      if (!v || !parseChecks(*v, va.checks, err))
        return usage(err.empty() ? "--checks needs a list" : err, errs);
      va.checksSet = true;
    } else if (opt.is("--assume")) {
      auto v = opt.value("--assume");
      if (!v)
        return usage("--assume needs an expression", errs);
      va.assumes.push_back(*v);
    } else if (a == "--json") {
      p.json = true;
    } else if (a == "--no-tests") {
      va.noTests = true;
    } else if (a == "--host-args") {
      va.hostArgs = true;
    } else if (a == "--bounded-only") {
      va.boundedOnly = true;
    } else if (opt.is("--bound")) {
      auto n = number("--bound", 0, 4096);
      if (!n || *n != static_cast<int>(*n))
        return usage("--bound needs a size between 0 (off) and 4096", errs);
      va.bound = static_cast<int>(*n);
    } else if (opt.is("--bound-budget")) {
      auto n = number("--bound-budget", 1e-6, 1e6);
      if (!n)
        return usage("--bound-budget needs a positive number of seconds", errs);
      va.boundBudgetS = *n;
    } else if (a == "--dump-kir") {
      va.dumpKir = true;
    } else if (a == "--stats") {
      va.stats = true;
    } else if (opt.is("--sarif")) {
      auto v = opt.value("--sarif");
      if (!v)
        return usage("--sarif needs a file", errs);
      p.sarif = *v;
    } else if (opt.is("--proof-dir")) {
      auto v = opt.value("--proof-dir");
      if (!v || v->empty())
        return usage("--proof-dir needs a directory", errs);
      va.proofDir = *v;
    } else if (opt.is("--dump-smt")) {
      auto v = opt.value("--dump-smt");
      if (!v)
        return usage("--dump-smt needs a directory", errs);
      va.dumpSmt = *v;
    } else if (opt.is("--timeout")) {
      auto n = number("--timeout", 1e-3, 1e6);
      if (!n)
        return usage("--timeout needs a positive number of seconds", errs);
      va.limitS = *n;
    } else if (opt.is("--query-timeout")) {
      auto n = number("--query-timeout", 1e-3, 1e6);
      if (!n)
        return usage("--query-timeout needs a positive number of seconds", errs);
      va.timeoutS = *n;
    } else if (opt.is("--spec")) {
      auto v = opt.value("--spec");
      if (!v)
        return usage("--spec needs a spec file", errs);
      va.spec = *v;
    } else if (opt.isOption()) {
      return usage("unknown option '" + a + "'", errs);
    } else if (va.file.empty()) {
      va.file = a;
    } else {
      return usage("more than one input file ('" + va.file + "', '" + a + "')", errs);
    }
  }
  if (va.file.empty())
    return usage("no input file", errs);
  return std::nullopt;
}

// Ends the process with an unknown verdict (exit 2) when the command is still running
// `kGraceS` after its --timeout: the backstop behind the driver's own checkpoints. What the
// driver reported so far (`progress`: the kernels verified, the rest as timed out) is printed
// as the command would have; before any, a file-level unknown.
class TimeLimitGuard {
public:
  static constexpr double kGraceS = 1.0;
  TimeLimitGuard(double limitS, bool json) : json_(json) {
    if (!(limitS > 0))
      return;
    thread_ = std::thread([this, limitS] {
      std::unique_lock<std::mutex> lk(m_);
      if (cv_.wait_for(lk, std::chrono::duration<double>(limitS + kGraceS), [this] { return done_; }))
        return;
      std::ostringstream o;
      o << limitS << " s";
      std::string why = "the time limit of the command (" + o.str() + ", --timeout) was reached";
      std::string text;
      if (snapshot_ && json_) {
        text = snapshot_->toJson().dump(2) + "\n";
      } else if (snapshot_) {
        std::ostringstream t;
        t << "ksynth: warning: " << why << " [timeout]\n";
        printText(*snapshot_, t);
        text = t.str();
      } else {
        text = json_ ? nlohmann::json{{"verdict", "unknown"}, {"reason", why}, {"timed_out", true}}.dump() + "\n"
                     : "ksynth: warning: " + why + " [timeout]\nVERDICT: UNKNOWN\n";
      }
      std::fflush(stdout);
      if (::write(1, text.data(), text.size()) < 0) {
      }
      std::_Exit(snapshot_ ? snapshot_->exitCode() : kExitUnknown); // a kernel refuted before stays so
    });
  }
  ~TimeLimitGuard() {
    if (!thread_.joinable())
      return;
    {
      std::lock_guard<std::mutex> lk(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  TimeLimitGuard(const TimeLimitGuard &) = delete;
  TimeLimitGuard &operator=(const TimeLimitGuard &) = delete;
  // The driver's report so far (VerifyRequest::progress).
  void progress(const driver::FileReport &rep) {
    if (!thread_.joinable())
      return;
    auto copy = std::make_unique<driver::FileReport>(rep);
    std::lock_guard<std::mutex> lk(m_);
    snapshot_ = std::move(copy);
  }
  // Verification is over: the command prints its own report from here on.
  void disarm() {
    {
      std::lock_guard<std::mutex> lk(m_);
      done_ = true;
    }
    cv_.notify_all();
  }

private:
  std::unique_ptr<driver::FileReport> snapshot_;
  bool json_;
  bool done_ = false;
  std::mutex m_;
  std::condition_variable cv_;
  std::thread thread_;
};

} // namespace

int verifyCommand(const std::vector<std::string> &args, std::ostream &outs, std::ostream &errs) {
  Parsed p;
  if (std::optional<int> code = parseVerifyArgs(args, p, errs))
    return *code;
  // The driver stops itself at the limit; what it cannot interrupt (clang expanding a macro
  // bomb, a solver that ignores its interrupt) is ended here shortly after.
  TimeLimitGuard guard(p.req.limitS, p.json);
  if (p.req.limitS > 0)
    p.req.progress = [&guard](const driver::FileReport &r) { guard.progress(r); };
  driver::FileReport rep = driver::verifyFile(p.req);
  guard.disarm();
  errs << rep.kirText;
  if (rep.outcome != driver::FileReport::Outcome::Verified) {
    errs << rep.errors;
    if (!rep.usage.empty())
      return usage(rep.usage, errs);
    if (rep.outcome == driver::FileReport::Outcome::Malformed && !rep.malformedPart.empty())
      outs << (p.json ? rep.toJson().dump() : std::string("VERDICT: UNKNOWN")) << "\n";
    return rep.exitCode();
  }
  errs << rep.errors; // e.g. the time limit passed before any kernel was checked
  if (!p.sarif.empty())
    writeSarif(p.sarif, rep.file, rep.kernels);
  if (p.json) {
    outs << rep.toJson().dump(2) << "\n";
    return rep.exitCode();
  }
  if (p.req.stats)
    printStats(rep, errs);
  return printText(rep, outs);
}

} // namespace ksynth::cli
