#include "synth/candidate.h"

#include "synth/compile.h"
#include "synth/extract.h"
#include "synth/prompt.h"

#include "util/process.h"
#include "util/exit_codes.h"
#include "util/files.h"
#include "verify/driver/driver.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ksynth::synth {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string seconds(double ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << ms / 1000 << " s";
  return s.str();
}

// Replaces every occurrence of `from` in `s`.
std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  if (from.empty())
    return s;
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
    s.replace(p, from.size(), to);
  return s;
}

const char *compileStatus(CompileResult::Status s) {
  return s == CompileResult::Status::Ok ? "ok" : s == CompileResult::Status::Failed ? "failed" : "skipped";
}

// nvcc on the candidate; false when it does not compile (the candidate's feedback is set).
bool compileStage(const CheckContext &ctx, Candidate &c, const std::string &cuAbs, const std::string &notes) {
  if (!ctx.nvcc) {
    c.record["compile"] = {{"status", "skipped"}, {"note", "no nvcc on PATH"}};
    c.progress += "compile skipped (no nvcc)  ";
    return true;
  }
  CompileResult cr = compileCheck(*ctx.nvcc, cuAbs);
  c.compileMs = cr.ms;
  writeText(c.dir / "compile.txt", cr.output);
  c.record["compile"] = {{"status", compileStatus(cr.status)},
                         {"registers", cr.registers >= 0 ? json(cr.registers) : json(nullptr)},
                         {"shared_bytes", cr.sharedBytes >= 0 ? json(cr.sharedBytes) : json(nullptr)},
                         {"note", cr.note}};
  c.record["time_ms"]["compile"] = cr.ms;
  if (cr.status != CompileResult::Status::Failed) {
    c.progress += cr.status == CompileResult::Status::Ok ? "compiled \u2713  " : "compile skipped (" + cr.note + ")  ";
    return true;
  }
  c.progress += "compiled \u2717";
  std::string errors = cr.output;
  if (errors.size() > 4000)
    errors = errors.substr(0, 4000) + "\n...";
  c.details = notes + "nvcc could not compile it:\n" + errors + (errors.empty() || errors.back() == '\n' ? "" : "\n");
  c.obligations = "  (none checked: the kernel does not compile)";
  c.stage = "compile";
  return false;
}

// What the verification of one candidate gave: the exit status `ksynth verify` would have,
// its JSON report (null when it has none) and its error text.
struct ChildVerdict {
  int exitCode = kExitInternal;
  json report;
  std::string errors;
};

ChildVerdict verifyHere(const driver::VerifyRequest &req) {
  ChildVerdict v;
  try {
    if (std::getenv("KSYNTH_DEBUG_VERIFY_ABORT")) // tests: a verifier that crashes
      std::abort();
    driver::FileReport rep = driver::verifyFile(req);
    v.exitCode = rep.exitCode();
    v.report = rep.toJson();
    v.errors = rep.errors + (rep.usage.empty() ? "" : "ksynth: error: " + rep.usage + "\n");
  } catch (const std::exception &e) {
    // Our bug, not the model's: recorded as a verifier error (exit 70), never as a verdict.
    v.exitCode = kExitInternal;
    v.report = nullptr;
    v.errors = std::string("ksynth: internal error while verifying the candidate: ") + e.what() + "\n";
  }
  return v;
}

// The candidate is verified in a child process: a model's kernel that crashes the verifier,
// or makes clang spin past the time limit, costs that candidate (an internal error, exit 70,
// never a verdict), not the run. Without a child process, in this one.
ChildVerdict verifyInChild(const driver::VerifyRequest &req) {
  util::ProcessResult pr = util::runInChild(
      [&] {
        ChildVerdict v = verifyHere(req);
        return json{{"exit", v.exitCode}, {"report", v.report}, {"errors", v.errors}}.dump();
      },
      req.limitS + 30);
  if (!pr.started)
    return verifyHere(req);
  json j = pr.ok() ? json::parse(pr.output, nullptr, false) : json();
  ChildVerdict v; // default: exit 70, ksynth's failure, never the kernel's verdict
  if (j.is_object() && j.contains("exit") && j["exit"].is_number_integer()) {
    v.exitCode = j["exit"].get<int>();
    v.report = j["report"];
    v.errors = j.value("errors", std::string());
    return v;
  }
  v.report = nullptr;
  v.errors = "ksynth: internal error: the verifier " + (pr.ok() ? std::string("ended without a report") : pr.how(req.limitS + 30)) +
             " on this candidate (a ksynth bug; the run goes on)\n";
  return v;
}

// One candidate's whole verification (the driver's --timeout).
constexpr double kCandidateLimitS = 600;

void verifyStage(const CheckContext &ctx, Candidate &c, const std::string &cuAbs, const std::string &notes) {
  std::ostringstream tos;
  tos << ctx.verifyTimeoutS;
  driver::VerifyRequest req;
  req.file = cuAbs;
  req.spec = ctx.specAbs;
  req.timeoutS = ctx.verifyTimeoutS;
  req.limitS = kCandidateLimitS; // a model's kernel never stalls the loop
  req.proofDir = (c.dir / "proof").string();
  // What the proof bundle records as the command: the `ksynth verify` line that repeats it.
  req.command = {cuAbs, "--spec", ctx.specAbs, "--json", "--query-timeout", tos.str(), "--timeout", std::to_string(static_cast<int>(kCandidateLimitS)), "--proof-dir", req.proofDir};
  std::string errors;
  auto v0 = Clock::now();
  ChildVerdict v = verifyInChild(req);
  c.check.exitCode = v.exitCode;
  c.check.report = v.report;
  errors = v.errors;
  c.verifyMs = msSince(v0);
  c.record["time_ms"]["verify"] = c.verifyMs;
  const std::string specName = ctx.spec->name + ".smt";
  c.check.errors = replaceAll(replaceAll(errors, cuAbs, "candidate.cu"), ctx.specAbs, specName);
  if (c.check.report.is_object() && c.check.report.contains("errors") && c.check.report["errors"].is_string())
    c.check.report["errors"] = replaceAll(c.check.report["errors"].get<std::string>(), cuAbs, "candidate.cu");
  c.checked = true;
  c.stage = "verify";
  json saved = c.check.report.is_null() ? json{{"exit_code", c.check.exitCode}} : c.check.report;
  writeText(c.dir / "report.json", saved.dump(2) + "\n");
  writeText(c.dir / "verify.txt", c.check.errors);
  std::string verdict = c.check.verdict();
  c.record["verdict"] = verdict;
  c.record["obligations"] = {{"proven", c.check.proven()}, {"total", c.check.total()}};
  c.record["failing"] = failingObligations(c.check);
  if (verdict == "proven") {
    c.progress += progressSummary(c.check) + " (" + seconds(c.verifyMs) + ")";
    return;
  }
  c.progress += progressSummary(c.check);
  c.details = notes + failureDetails(c.check, c.code);
  c.obligations = obligationTable(c.check);
}

} // namespace

bool writeText(const fs::path &path, const std::string &text) { return util::writeFileAtomic(path, text); }

int Candidate::rank() const {
  if (!checked) // a reply with no usable kernel ranks above a request that failed
    return stage == "model" ? -2 : -1;
  std::string v = check.verdict();
  int base = v == "proven"    ? 4000000
             : v == "bounded" ? 3000000
             : v == "unknown" ? 2000000
             : v == "refuted" ? 1000000
                              : 0;
  return base + check.proven();
}

std::string Candidate::feedback() const {
  if (proven() || stage == "model")
    return "";
  std::string text;
  if (!problems.empty())
    text = fill(promptTemplate("extract_feedback"),
                {{"candidate", label}, {"problems", problems}, {"spec_name", specName}});
  else
    text = fill(promptTemplate("feedback"), {{"candidate", label}, {"details", details}, {"obligations", obligations}});
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

Candidate checkReply(const CheckContext &ctx, const models::Reply &reply, const fs::path &dir,
                     const std::string &label) {
  Candidate c;
  c.label = label;
  c.dir = dir;
  c.reply = reply.text;
  std::error_code ec;
  fs::create_directories(dir, ec);
  writeText(dir / "reply.md", reply.text);
  c.specName = ctx.spec->name;

  Extracted ex = extractCandidate(reply.text, ctx.spec->name);
  if (reply.error.kind == models::ErrorKind::TokenLimit)
    ex.problems.insert(ex.problems.begin(), "The reply was cut off by the token limit (" + reply.error.message +
                                                "); send a shorter reply: only the kernel.");
  ex.ok = ex.problems.empty();
  c.record["extract"] = {{"ok", ex.ok}, {"problems", ex.problems}, {"notes", ex.notes}};
  if (!ex.ok) {
    for (const std::string &p : ex.problems)
      c.problems += "- " + p + "\n";
    while (!c.problems.empty() && c.problems.back() == '\n')
      c.problems.pop_back();
    c.progress = "no candidate  (" + ex.problems.front().substr(0, 120) + ")";
    c.stage = "extract";
    return c;
  }
  c.code = ex.code;
  fs::path cu = dir / "candidate.cu";
  writeText(cu, ex.code);
  std::string cuAbs = fs::absolute(cu).string();
  std::string notes;
  for (const std::string &n : ex.notes)
    notes += "Note: " + n + ".\n";
  if (compileStage(ctx, c, cuAbs, notes))
    verifyStage(ctx, c, cuAbs, notes);
  return c;
}

std::optional<double> timedMs(const json &summary) {
  if (summary.is_object() && summary.value("backend", "") == "gpu" && summary.contains("median_ms") &&
      summary["median_ms"].is_number())
    return summary["median_ms"].get<double>();
  return std::nullopt;
}

json runJsonIn(const std::string &output) {
  size_t start = output.find("{\n"), end = output.rfind("\n}");
  if (start == std::string::npos || end == std::string::npos || end < start)
    return json();
  json j = json::parse(output.substr(start, end + 2 - start), nullptr, false);
  return j.is_object() ? j : json();
}

json runKernel(const std::string &ksynth, const fs::path &kernel, const std::string &specPath,
               const std::string &nvccOption, const fs::path &runJson, std::string &line) {
  // Only a proven kernel runs: on fresh inputs against the spec, timed on a GPU.
  std::vector<std::string> args = {ksynth, "run", kernel.string(), "--spec", specPath, "--json"};
  if (!nvccOption.empty())
    args.insert(args.end(), {"--nvcc", nvccOption});
  util::ProcessResult pr = util::runProcess(args, 900);
  json rj = runJsonIn(pr.output);
  if (!rj.is_object()) {
    line = "run: ksynth run " + pr.how(900);
    return {{"result", "error"}, {"error", "ksynth run " + pr.how(900) + ": " + pr.output.substr(0, 500)}};
  }
  writeText(runJson, rj.dump(2) + "\n");
  std::string result = rj.value("result", "?");
  std::string backend = rj.value("backend", "");
  json summary = {{"result", result}, {"backend", backend}, {"file", fs::absolute(runJson).string()}};
  line = "run: " + result + " on the " + (backend == "gpu" ? "GPU" : "interpreter");
  if (rj.contains("timing")) {
    summary["median_ms"] = rj["timing"]["median_ms"];
    summary["gb_per_s"] = rj["timing"]["gb_per_s"];
    summary["gflop_per_s"] = rj["timing"]["gflop_per_s"];
    std::ostringstream t;
    t << std::setprecision(4) << rj["timing"]["median_ms"].get<double>() << " ms, "
      << rj["timing"]["gb_per_s"].get<double>() << " GB/s, " << rj["timing"]["gflop_per_s"].get<double>()
      << " GFLOP/s";
    line += " (" + t.str() + ")";
  } else {
    std::string why = rj.contains("run") ? rj["run"].value("not_timed", std::string("not timed")) : "not timed";
    summary["not_timed"] = why;
    line += " (" + why + ")";
  }
  if (result != "PASS" && result != "NOT RUN")
    line += ": a proven kernel disagreed with its spec when run; this is a bug in ksynth or in its float "
            "tolerance (" + fs::absolute(runJson).string() + ")";
  return summary;
}

} // namespace ksynth::synth
