#include "bundle/check.h"

#include "bundle/bundle.h"
#include "util/exit_codes.h"
#include "util/files.h"
#include "util/invariant.h"
#include "util/process.h"
#include "util/sha256.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace ksynth::bundle {

namespace fs = std::filesystem;
using nlohmann::json;
using util::readFile;
using util::sha256Hex;

namespace {

// printf-style columns of the table.
template <typename... A> std::string cell(const char *fmt, A... a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a...);
  return buf;
}

bool onPath(const std::string &exe) { return !util::findOnPath(exe).empty(); }

// Runs argv (argv[0] looked up on PATH); its standard output and error (first 4 KiB), or
// why not. Killed after `seconds` plus a grace of 5 s (the solvers' own limits come first).
bool runSolver(const std::vector<std::string> &argv, double seconds, std::string &out, std::string &why) {
  std::vector<std::string> args = argv;
  args[0] = util::findOnPath(argv[0]);
  if (args[0].empty()) {
    why = "cannot run " + argv[0];
    return false;
  }
  util::ProcessResult r = util::runProcess(args, seconds + 5);
  if (!r.started) {
    why = "cannot run " + argv[0];
    return false;
  }
  out = r.output.substr(0, 4096);
  if (r.timedOut) {
    why = "killed after " + std::to_string(static_cast<int>(seconds + 5)) + " s";
    return false;
  }
  return true;
}

// The solver's answer: "unsat", "sat", "unknown", "timeout", or an error text.
std::string answerOnce(const std::vector<std::string> &argv, double seconds) {
  std::string out, why;
  if (!runSolver(argv, seconds, out, why))
    return why;
  std::istringstream is(out);
  std::string first;
  std::getline(is, first);
  while (!first.empty() && (first.back() == '\r' || first.back() == ' '))
    first.pop_back();
  if (first == "unsat" || first == "sat" || first == "unknown" || first == "timeout")
    return first;
  if (out.find("timeout") != std::string::npos || out.find("interrupted") != std::string::npos)
    return "timeout";
  return "error: " + out.substr(0, 200);
}

// Z3's configurations, tried in turn while the answer is neither sat nor unsat: its default,
// then its older arithmetic engine (smt.arith.solver=2), which answers some queries that need
// a product of equals (C*b = C*j from b = j) at once where the default one searches for
// minutes. Both are the same z3 executable deciding the same query; unsat from either is
// the query holding, and sat from either fails the check.
struct Answer {
  std::string text;   // "unsat", "sat", ...
  std::string option; // the z3 option that gave it, empty for the default
};

Answer answer(const std::string &solver, const fs::path &file, double seconds) {
  if (solver != "z3")
    return {answerOnce({"cvc5", "--lang=smt2", "--incremental",
                        "--tlimit=" + std::to_string(static_cast<long>(seconds * 1000)), file.string()},
                       seconds),
            ""};
  // First each configuration with a quarter of the limit, then each with all of it: a query
  // only the second configuration answers (at once) does not wait out the default's whole
  // limit first (matmul_regtile: one query, 40 s -> 10 s).
  std::vector<double> stages{seconds};
  if (seconds >= 8)
    stages.insert(stages.begin(), seconds / 4);
  Answer a;
  for (double limit : stages)
    for (const char *option : {"", "smt.arith.solver=2"}) {
      std::vector<std::string> argv{"z3", "-T:" + std::to_string(static_cast<int>(limit + 0.999))};
      if (*option)
        argv.push_back(option);
      argv.push_back(file.string());
      std::string t = answerOnce(argv, limit);
      if (a.text.empty() || t == "sat" || t == "unsat")
        a = {t, option};
      if (t == "sat" || t == "unsat")
        return a;
    }
  return a;
}

// Why `text` is not a query as ksynth writes one, or empty: exactly one (check-sat), and none
// of the commands that print, pop or start over ((echo "unsat") as the first output, or a
// trivially unsat (check-sat) before the real one, would otherwise read as the answer).
// Comments, string literals and |quoted| symbols are skipped.
std::string queryShapeProblem(const std::string &text) {
  int checks = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ';') {
      i = text.find('\n', i);
      if (i == std::string::npos)
        break;
    } else if (c == '"' || c == '|') {
      size_t end = text.find(c, i + 1);
      if (end == std::string::npos)
        return "an unterminated string or quoted symbol";
      i = end;
    } else if (c == '(') {
      size_t j = i + 1;
      while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j])))
        ++j;
      size_t k = j;
      while (k < text.size() && !std::isspace(static_cast<unsigned char>(text[k])) && text[k] != '(' &&
             text[k] != ')' && text[k] != ';')
        ++k;
      std::string head = text.substr(j, k - j);
      if (head == "check-sat")
        ++checks;
      else if (head == "check-sat-assuming" || head == "echo" || head == "reset" || head == "reset-assertions" ||
               head == "exit" || head == "pop" || head == "set-option" || head == "get-value" ||
               head == "get-model" || head == "get-info" || head == "get-option" || head == "get-assertions" ||
               head == "get-proof" || head == "get-unsat-core" || head == "include")
        return "it has (" + head + " ...), which ksynth never writes";
    }
  }
  if (checks != 1)
    return "it has " + std::to_string(checks) + " (check-sat) commands, not one";
  return "";
}

// Queries asked together in one solver process (batchAnswers), and the limit on each there.
constexpr size_t kBatchSize = 24;
constexpr double kBatchLimitS = 2;

// One solver process for many query files: each file's text, then a marker line, then
// (reset), which clears every declaration and assertion (SMT-LIB 2.6, section 4.2.1) so the
// next file starts as in a fresh process. Starting z3 costs about 0.1 s here, more than most
// queries take (softmax_online_warp8: 753 queries, 93 s of CPU one process each, 12 s in
// batches). Only an answer that is exactly "unsat" between its file's two markers is taken;
// anything else (sat, unknown, an error, a marker missing or out of order, the process killed)
// leaves the file to be asked alone as before, so a batch can save time but never decide what
// a run of its own would not. Files go in only when queryShapeProblem finds nothing (one
// (check-sat), nothing that prints or resets), so a file cannot forge another one's answer.
// Each file has kBatchLimitS. `done[i]` is set for the files answered.
void batchAnswers(const std::string &solver, const std::vector<std::string> &files, std::vector<Answer> &answers,
                  std::vector<bool> &done) {
  const std::string ms = std::to_string(static_cast<long>(kBatchLimitS * 1000));
  std::string text;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string body;
    if (!readFile(files[i], body))
      return; // it changed under us: every file asked alone
    if (solver == "z3")
      text += "(set-option :timeout " + ms + ")\n";
    text += body + "\n(echo \"@@ksynth-batch " + std::to_string(i) + "@@\")\n(reset)\n";
  }
  std::string tmpl = (fs::temp_directory_path() / "ksynth-batch-XXXXXX.smt2").string();
  int fd = ::mkstemps(tmpl.data(), 5);
  if (fd < 0)
    return;
  ::close(fd);
  if (!util::writeFileAtomic(tmpl, text)) {
    fs::remove(tmpl);
    return;
  }
  std::vector<std::string> argv;
  if (solver == "z3")
    argv = {util::findOnPath("z3"), tmpl};
  else // --tlimit-per: each (check-sat)'s own limit
    argv = {util::findOnPath("cvc5"), "--lang=smt2", "--incremental", "--tlimit-per=" + ms, tmpl};
  util::ProcessResult r = util::runProcess(argv, static_cast<double>(files.size()) * kBatchLimitS + 10);
  std::error_code ec;
  fs::remove(tmpl, ec);
  if (!r.started)
    return;
  // The output so far is kept when the process is killed: the files answered before count.
  std::istringstream is(r.output);
  std::vector<std::string> segment;
  size_t expect = 0;
  for (std::string line; std::getline(is, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.pop_back();
    std::string bare = line.size() >= 2 && line.front() == '"' && line.back() == '"' ? line.substr(1, line.size() - 2) : line;
    if (bare.rfind("@@ksynth-batch ", 0) != 0) {
      if (!line.empty())
        segment.push_back(line);
      continue;
    }
    if (bare != "@@ksynth-batch " + std::to_string(expect) + "@@")
      return; // out of order: trust nothing after it
    if (segment.size() == 1 && segment[0] == "unsat") {
      answers[expect] = {"unsat", ""};
      done[expect] = true;
    }
    segment.clear();
    ++expect;
  }
}

// Answers every (solver, query file) pair, `jobs` solver processes at a time: in batches
// (batchAnswers), each pair a batch did not answer unsat then in a run of its own. Each run is
// independent of the others, so the order does not change any answer, only the wall time.
std::map<std::pair<std::string, std::string>, Answer>
answerAll(const std::vector<std::pair<std::string, std::string>> &work, double seconds, int jobs,
          const std::map<std::string, double> &timeoutFor, bool batch) {
  std::vector<Answer> answers(work.size());
  std::vector<double> limits(work.size());
  for (size_t i = 0; i < work.size(); ++i) {
    // "SOLVER:FILE" (that solver's limit on the file) first, then "FILE" (every solver's).
    std::string file = fs::path(work[i].second).filename().string();
    auto own = timeoutFor.find(work[i].first + ":" + file);
    if (own == timeoutFor.end())
      own = timeoutFor.find(file);
    limits[i] = own != timeoutFor.end() ? own->second : seconds;
  }
  unsigned n = jobs > 0 ? static_cast<unsigned>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  auto runPool = [&](size_t tasks, const std::function<void(size_t)> &task) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t i; (i = next++) < tasks;)
        task(i);
    };
    unsigned threads = std::min<unsigned>(n, static_cast<unsigned>(std::max<size_t>(1, tasks)));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
      pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
      t.join();
  };
  if (!batch) {
    runPool(work.size(), [&](size_t i) { answers[i] = answer(work[i].first, work[i].second, limits[i]); });
  } else {
    // Chunks of one solver's files; a worker asks a chunk's files in one process, then at once
    // each file that batch did not answer in a process of its own (no wait for the other
    // chunks: the cores stay busy to the end). A file with a limit of its own below the
    // batch's is a chunk by itself, asked alone.
    std::vector<std::vector<size_t>> chunks;
    std::map<std::string, std::vector<size_t>> bySolver;
    for (size_t i = 0; i < work.size(); ++i)
      if (limits[i] >= kBatchLimitS)
        bySolver[work[i].first].push_back(i);
      else
        chunks.push_back({i});
    for (const auto &[solver, items] : bySolver)
      for (size_t b = 0; b < items.size(); b += kBatchSize)
        chunks.emplace_back(items.begin() + static_cast<long>(b),
                            items.begin() + static_cast<long>(std::min(items.size(), b + kBatchSize)));
    runPool(chunks.size(), [&](size_t c) {
      std::vector<std::string> files;
      for (size_t i : chunks[c])
        files.push_back(work[i].second);
      std::vector<Answer> got(files.size());
      std::vector<bool> ok(files.size(), false);
      if (limits[chunks[c][0]] >= kBatchLimitS)
        batchAnswers(work[chunks[c][0]].first, files, got, ok);
      for (size_t k = 0; k < files.size(); ++k) {
        size_t i = chunks[c][k];
        answers[i] = ok[k] ? got[k] : answer(work[i].first, work[i].second, limits[i]);
      }
    });
  }
  std::map<std::pair<std::string, std::string>, Answer> out;
  for (size_t i = 0; i < work.size(); ++i)
    out[work[i]] = answers[i];
  return out;
}

} // namespace

int checkBundle(const CheckOptions &opts, std::ostream &out, std::ostream &err) {
  const std::string &dir = opts.dir, &kernelFile = opts.kernelFile, &specFile = opts.specFile;
  const std::vector<std::string> &solvers = opts.solvers;
  const double timeoutS = opts.timeoutS;
  std::vector<std::string> failures;
  auto fail = [&](const std::string &m) { failures.push_back(m); };
  std::string text;
  json p;
  if (!readFile(fs::path(dir) / "proof.json", text)) {
    err << "ksynth check-proof: error: no proof.json in '" << dir << "'\n";
    return kExitCheckFailed;
  }
  try {
    p = json::parse(text);
  } catch (const std::exception &e) {
    err << "ksynth check-proof: error: proof.json does not parse: " << e.what() << "\n";
    return kExitCheckFailed;
  }
  if (!p.is_object() || p.value("format", "") != "ksynth-proof-1") {
    err << "ksynth check-proof: error: proof.json is not a ksynth-proof-1 bundle\n";
    return kExitCheckFailed;
  }
  if (p.value("sha256", "") != selfHash(p))
    fail("proof.json: its sha256 does not match its content (edited after it was written)");

  auto checkSource = [&](const char *key, const std::string &given) {
    if (!p.contains(key))
      return;
    const json &s = p[key];
    fs::path f = given.empty() ? fs::path(dir) / s.value("file", "") : fs::path(given);
    std::string body;
    if (!readFile(f, body))
      fail(std::string(key) + ": cannot read '" + f.string() + "'");
    else if (sha256Hex(body) != s.value("sha256", ""))
      fail(std::string(key) + ": '" + f.string() + "' has changed since the proof (sha256 " +
           sha256Hex(body).substr(0, 12) + "..., the proof has " + s.value("sha256", "").substr(0, 12) + "...)");
  };
  checkSource("kernel", kernelFile);
  checkSource("spec", specFile);

  std::map<std::string, bool> present;
  for (const std::string &s : solvers) {
    present[s] = onPath(s);
    if (!present[s])
      fail(s + " is not on PATH (Debian package: " + s + "); its column shows 'missing'");
  }

  out << "proof " << dir << ": verdict " << p.value("verdict", "?") << ", ksynth "
            << p["ksynth"].value("version", "?") << " (" << p["ksynth"].value("git", "?") << "), "
            << p.value("solver", "") << "\n";
  out << cell("%-34s %-9s %6s", "obligation", "recorded", "files");
  for (const std::string &s : solvers)
    out << cell(" %-10s", s.c_str());
  out << " result\n";
  int rechecked = 0, queries = 0;
  // First the solver runs, all at once: every query of a proven obligation whose file is
  // there and unchanged (the table below reports the others), once per solver.
  std::vector<std::pair<std::string, std::string>> work;
  std::set<std::pair<std::string, std::string>> queued;
  auto skipped = [&](const std::string &solver, const fs::path &f) {
    return opts.skip.count(solver + ":" + f.filename().string()) > 0;
  };
  int skips = 0;
  for (const json &k : p.value("kernels", json::array()))
    for (const json &o : k.value("obligations", json::array())) {
      if (o.value("status", "") != "proven")
        continue;
      for (const json &q : o.value("queries", json::array())) {
        fs::path f = fs::path(dir) / q.value("file", "");
        std::string body;
        if (!readFile(f, body) || sha256Hex(body) != q.value("sha256", "") || !queryShapeProblem(body).empty())
          continue;
        for (const std::string &s : solvers)
          if (present[s] && !skipped(s, f) && queued.insert({s, f.string()}).second)
            work.push_back({s, f.string()});
      }
    }
  std::map<std::pair<std::string, std::string>, Answer> answered = answerAll(work, timeoutS, opts.jobs, opts.timeoutFor, opts.batch);
  for (const json &k : p.value("kernels", json::array())) {
    for (const json &o : k.value("obligations", json::array())) {
      std::string name = k.value("name", "") + ":" + o.value("name", "");
      std::string st = o.value("status", "");
      const json &qs = o.value("queries", json::array());
      std::map<std::string, std::string> worst; // solver -> first non-unsat answer
      std::set<std::string> viaOption;          // "z3 OPTION" that answered unsat where the default did not
      std::map<std::string, size_t> skippedHere; // solver -> queries it was not asked (--skip)
      bool ok = true;
      std::string note;
      if (st == "proven") {
        for (const json &q : qs) {
          fs::path f = fs::path(dir) / q.value("file", "");
          std::string body;
          if (!readFile(f, body)) {
            fail(name + ": query file '" + q.value("file", "") + "' is missing");
            ok = false;
            note = "missing file";
            continue;
          }
          if (sha256Hex(body) != q.value("sha256", "")) {
            fail(name + ": query file '" + q.value("file", "") + "' has changed since the proof");
            ok = false;
            note = "changed file";
            continue;
          }
          if (std::string why = queryShapeProblem(body); !why.empty()) {
            fail(name + ": query file '" + q.value("file", "") + "' is not one query as ksynth writes them: " + why);
            ok = false;
            note = "not a query";
            continue;
          }
          ++queries;
          int asked = 0;
          for (const std::string &s : solvers) {
            if (!present[s])
              continue;
            if (skipped(s, f)) {
              ++skips;
              ++skippedHere[s];
              continue;
            }
            ++asked;
            auto hit = answered.find({s, f.string()});
            KSYNTH_INVARIANT(hit != answered.end(), "every present query was answered before the table");
            const Answer &ans = hit->second;
            const std::string &a = ans.text;
            if (a == "unsat" && !ans.option.empty())
              viaOption.insert(s + " " + ans.option);
            if (a != "unsat") {
              if (!worst.count(s))
                worst[s] = a;
              fail(name + ": " + s + " answers '" + a + "' on " + q.value("file", "") + " (unsat is needed)");
              ok = false;
            }
          }
          bool anyPresent =
              std::any_of(solvers.begin(), solvers.end(), [&](const std::string &s) { return present[s]; });
          if (asked == 0 && anyPresent) {
            fail(name + ": no solver is asked about " + q.value("file", "") + " (every one skipped)");
            ok = false;
            note = "no solver asked";
          }
        }
        if (ok)
          ++rechecked;
        note = ok ? (qs.empty() ? "no query (decided without one)" : "re-checked") : "FAILED" + (note.empty() ? "" : " (" + note + ")");
        for (const std::string &v : viaOption)
          note += " (" + v + " on a query the default did not answer)";
        for (const auto &[sv, n] : skippedHere)
          note += " (" + sv + " not asked about " + std::to_string(n) + ")";
      } else {
        note = "not re-checked: recorded as " + st + " (never upgraded)";
      }
      out << cell("%-34s %-9s %6zu", name.substr(0, 34).c_str(), st.c_str(), qs.size());
      for (const std::string &s : solvers) {
        std::string text = st != "proven" || qs.empty() ? "-"
                           : !present[s]                ? "missing"
                           : worst.count(s)             ? worst[s]
                           : skippedHere[s] == qs.size() ? "skipped"
                                                         : "unsat";
        out << cell(" %-10s", text.substr(0, 10).c_str());
      }
      out << " " << note << "\n";
    }
  }
  out << rechecked << " proven obligation(s) re-checked, " << queries << " query file(s)";
  if (skips)
    out << " (" << skips << " solver run(s) skipped as asked)";
  out << "\n";
  for (const std::string &f : failures)
    out << "check-proof: error: " << f << "\n";
  if (!failures.empty()) {
    out << "CHECK-PROOF: FAILED\n";
    return kExitCheckFailed;
  }
  bool proven = p.value("verdict", "") == "proven";
  out << "CHECK-PROOF: " << (proven ? "OK" : "OK (recorded verdict " + p.value("verdict", "") + ", not proven)")
            << "\n";
  return proven ? kExitCheckOk : kExitCheckNotProven;
}

} // namespace ksynth::bundle
