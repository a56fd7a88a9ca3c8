#include "synth/bench.h"

#include "synth/candidate.h"

#include "util/exit_codes.h"
#include "util/files.h"
#include "util/process.h"

#include <algorithm>
#include <sstream>

namespace ksynth::synth::bench {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The obligations that make a kernel safe (every one but coverage and equivalence).
const std::vector<std::string> kSafetyKinds = {"race", "barrier", "bounds", "overflow", "assert", "warp", "align"};

// The order in which a refuted candidate's counterexample kind is named: the safety
// properties first (a racy kernel that also computes the wrong value is a race).
const std::vector<std::string> kKindOrder = {"race",  "barrier", "warp",     "align",       "bounds",
                                             "overflow", "assert", "coverage", "equivalence", "assumptions"};

json readJson(const fs::path &p) {
  std::string text;
  if (!util::readFile(p, text))
    return json();
  return json::parse(text, nullptr, false);
}

double ms(const json &j, const char *key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

// The plain test's outcome for the row: passed true/false, or null when it could not run.
json allcloseOf(const json &aj) {
  if (!aj.is_object())
    return {{"passed", nullptr}, {"why", "no test was run"}};
  json a = {{"passed", aj.contains("passed") ? aj["passed"] : json(nullptr)}};
  for (const char *k : {"result", "backend", "why"})
    if (aj.contains(k))
      a[k] = aj[k];
  if (aj.contains("sizes"))
    a["sizes"] = aj["sizes"];
  return a;
}

// The obligations of a candidate's verifier report: kind -> statuses seen.
void obligationKinds(const json &report, std::vector<std::string> &refuted, std::vector<std::string> &open,
                     bool &safe) {
  safe = false;
  if (!report.is_object() || !report.contains("kernels") || !report["kernels"].is_array() ||
      report["kernels"].empty())
    return;
  safe = true;
  for (const json &k : report["kernels"])
    for (const json &o : k.value("obligations", json::array())) {
      std::string kind = o.value("kind", ""), status = o.value("status", "");
      bool safety = std::find(kSafetyKinds.begin(), kSafetyKinds.end(), kind) != kSafetyKinds.end();
      if (safety && status != "proven")
        safe = false;
      if (status == "refuted")
        refuted.push_back(kind);
      else if (status != "proven")
        open.push_back(kind);
    }
  auto order = [](const std::string &a, const std::string &b) {
    auto ia = std::find(kKindOrder.begin(), kKindOrder.end(), a), ib = std::find(kKindOrder.begin(), kKindOrder.end(), b);
    return ia != ib ? ia < ib : a < b;
  };
  for (auto *v : {&refuted, &open}) {
    std::sort(v->begin(), v->end(), order);
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
}

// The baseline time of `op` at exactly `dims` (bench.json's "baseline": gpu_baselines.py's
// lines), if one was given.
std::optional<double> baselineMs(const json &bench, const std::string &op, const json &dims) {
  if (!bench.contains("baseline") || !bench["baseline"].is_array())
    return std::nullopt;
  for (const json &b : bench["baseline"])
    if (b.value("op", "") == op && b.contains("sizes") && b["sizes"] == dims && b.contains("median_ms") &&
        b["median_ms"].is_number())
      return b["median_ms"].get<double>();
  return std::nullopt;
}

// The plain test of one candidate (round directory `rd`), as a harness without proofs runs it:
// once at the default shape (the spec's sizes on a GPU, small ones on the interpreter) on fresh
// random inputs with poisoned outputs, compared with the spec.
json plainTest(const std::string &ksynth, const json &bench, const Task &t, const fs::path &rd, double timeoutS) {
  std::vector<std::string> args = {ksynth, "run", (rd / "candidate.cu").string(), "--spec", t.specFile,
                                   "--no-proof", "--json", "--timeout", std::to_string(static_cast<int>(timeoutS))};
  if (bench.contains("nvcc") && bench["nvcc"].is_string())
    args.insert(args.end(), {"--nvcc", bench["nvcc"].get<std::string>()});
  util::ProcessResult pr = util::runProcess(args, timeoutS + 60);
  json rj = runJsonIn(pr.output);
  json a = {{"exit", pr.started && !pr.timedOut && pr.signal == 0 ? json(pr.exitCode) : json(nullptr)},
            {"time_ms", pr.ms}};
  if (!rj.is_object()) {
    a["passed"] = nullptr;
    a["why"] = "ksynth run " + pr.how(timeoutS + 60) + " without a report";
    return a;
  }
  std::string result = rj.value("result", "");
  a["result"] = result;
  a["backend"] = rj.value("backend", "");
  if (rj.contains("plan") && rj["plan"].contains("dims"))
    a["sizes"] = rj["plan"]["dims"];
  if (result == "PASS")
    a["passed"] = true;
  else if (result == "NOT RUN" || result == "REFUSED") // no shape to run at, no GPU asked for: no test
    a["passed"] = nullptr, a["why"] = rj.value("not_run", std::string("not run"));
  else if (pr.exitCode == kExitMalformed)
    a["passed"] = false, a["why"] = "does not parse";
  else
    a["passed"] = false, a["why"] = result.empty() ? "exit " + std::to_string(pr.exitCode) : result;
  a["run"] = rj;
  return a;
}

std::string sampleName(int k) { return "sample-" + std::to_string(k); }

} // namespace

int stageIndex(const std::string &stage) {
  auto it = std::find(kStages.begin(), kStages.end(), stage);
  return it == kStages.end() ? -1 : static_cast<int>(it - kStages.begin());
}

std::vector<Task> tasks(const json &bench) {
  std::vector<Task> out;
  int k = bench.value("samples", 1);
  for (const json &s : bench.value("specs", json::array()))
    for (int i = 1; i <= k; ++i)
      out.push_back({s.value("name", ""), s.value("file", ""), i});
  return out;
}

fs::path taskDir(const fs::path &run, const Task &t) { return run / "tasks" / t.spec / sampleName(t.sample); }

std::vector<Task> shardTasks(const std::vector<Task> &all, int index, int count) {
  std::vector<Task> out;
  for (size_t i = static_cast<size_t>(index); i < all.size(); i += static_cast<size_t>(count))
    out.push_back(all[i]);
  return out;
}

bool taskDone(const fs::path &dir) { return fs::exists(dir / "rows.jsonl"); }

bool loopFinished(const fs::path &dir) {
  json r = readJson(dir / "report.json");
  std::string st = r.is_object() ? r.value("status", "") : "";
  return st == "proven" || st == "budget-exhausted" || st == "inconclusive";
}

bool finishTask(const std::string &ksynth, const json &bench, const Task &t, const fs::path &dir, double timeoutS,
                const std::atomic<bool> *stop, std::string &err) {
  if (!loopFinished(dir)) {
    err = dir.string() + " holds no finished loop (report.json's status)";
    return false;
  }
  json report = readJson(dir / "report.json");
  for (const json &rec : report.value("rounds", json::array())) {
    std::string stage = rec.value("stage", "");
    if (stage != "compile" && stage != "verify")
      continue; // no kernel: nothing to test
    fs::path rd = dir / ("round-" + std::to_string(rec.value("round", 0)));
    if (fs::exists(rd / "allclose.json"))
      continue;
    if (stop && stop->load())
      return false;
    json a;
    std::string verdict = rec.value("verdict", "");
    if (stage == "compile")
      a = {{"passed", false}, {"why", "does not compile"}};
    else if (verdict == "malformed")
      a = {{"passed", false}, {"why", "does not parse"}};
    else
      a = plainTest(ksynth, bench, t, rd, timeoutS);
    util::writeFileAtomic(rd / "allclose.json", a.dump(2) + "\n");
  }
  std::string text;
  for (const json &row : taskRows(bench, t, dir))
    text += row.dump() + "\n";
  if (!util::writeFileAtomic(dir / "rows.jsonl", text)) {
    err = "cannot write " + (dir / "rows.jsonl").string();
    return false;
  }
  return true;
}

std::vector<json> taskRows(const json &bench, const Task &t, const fs::path &dir) {
  json report = readJson(dir / "report.json");
  json rounds = report.is_object() ? report.value("rounds", json::array()) : json::array();
  int lastRound = 0;
  for (const json &rec : rounds)
    if (rec.value("stage", "") != "interrupted")
      lastRound = std::max(lastRound, rec.value("round", 0));
  int provenRound = report.is_object() ? report.value("proven_round", 0) : 0;
  std::vector<json> rows;
  for (const json &rec : rounds) {
    std::string stage = rec.value("stage", "");
    if (stage == "interrupted")
      continue;
    int r = rec.value("round", 0);
    fs::path rd = dir / ("round-" + std::to_string(r));
    json row = {{"spec", t.spec},
                {"sample", t.sample},
                {"round", r},
                {"final", r == lastRound},
                {"provider", bench.value("provider", "")},
                {"model", bench.contains("model") ? bench["model"] : json(nullptr)},
                {"source", bench.value("source", "model")}};
    int reached = -1;
    std::string verdict = rec.value("verdict", "");
    std::vector<std::string> refuted, open;
    bool safe = false;
    if (stage == "compile" || stage == "verify")
      reached = stageIndex("extracted");
    if (stage == "verify" && verdict != "malformed" && verdict != "error" && !verdict.empty()) {
      reached = stageIndex("parses");
      obligationKinds(readJson(rd / "report.json"), refuted, open, safe);
      if (safe)
        reached = stageIndex("safe");
      if (verdict == "proven")
        reached = stageIndex("equivalent");
    }
    json ran = nullptr;
    if (verdict == "proven" && r == provenRound && report.contains("run") && report["run"].is_object()) {
      const json &run = report["run"];
      ran = {{"result", run.value("result", "")}, {"backend", run.value("backend", "")}};
      if (run.contains("median_ms"))
        ran["median_ms"] = run["median_ms"];
      if (run.value("result", "") == "PASS") {
        reached = stageIndex("ran");
        json kr = readJson(dir / "kernel-run.json");
        json dims = kr.is_object() && kr.contains("plan") ? kr["plan"].value("dims", json()) : json();
        ran["sizes"] = dims;
        std::optional<double> base = baselineMs(bench, t.spec, dims);
        if (base)
          ran["baseline_ms"] = *base;
        if (base && run.value("backend", "") == "gpu" && run.contains("median_ms") && run["median_ms"].is_number()) {
          ran["speedup"] = *base / run["median_ms"].get<double>();
          if (run["median_ms"].get<double>() < *base)
            reached = stageIndex("faster");
        }
      }
    }
    row["stage"] = reached < 0 ? "none" : kStages[static_cast<size_t>(reached)];
    row["verdict"] = verdict.empty() ? json(nullptr) : json(verdict);
    row["verifier_error"] = verdict == "error"; // ksynth's failure, not the model's
    row["refuted"] = refuted;
    row["undecided"] = open;
    row["counterexample_kind"] = refuted.empty() ? json(nullptr) : json(refuted.front());
    if (rec.contains("error"))
      row["model_error"] = rec["error"];
    row["tokens"] = rec.contains("tokens") ? rec["tokens"] : json(nullptr);
    const json tm = rec.value("time_ms", json::object());
    json aj = readJson(rd / "allclose.json");
    row["seconds"] = {{"model", ms(tm, "model") / 1000},
                      {"compile", ms(tm, "compile") / 1000},
                      {"verify", ms(tm, "verify") / 1000},
                      {"plain_test", ms(aj, "time_ms") / 1000}};
    row["allclose"] = allcloseOf(aj);
    row["ran"] = ran;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<json> readRows(const fs::path &dir) {
  std::vector<json> rows;
  std::string text;
  if (!util::readFile(dir / "rows.jsonl", text))
    return rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object())
        rows.push_back(std::move(j));
    }
  return rows;
}

} // namespace ksynth::synth::bench
