#include "synth/bench_metrics.h"

#include "synth/bench.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ksynth::synth::bench {

using nlohmann::json;

double passAtK(int n, int c, int k) {
  assert(0 <= c && c <= n && 1 <= k && k <= n);
  if (n - c < k)
    return 1.0;
  // C(n-c, k)/C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i): no large binomials.
  double fail = 1.0;
  for (int i = n - c + 1; i <= n; ++i)
    fail *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - fail;
}

namespace {

// What one sample (one loop) achieved.
struct Sample {
  int best = -1;                 // highest stage index over its rounds
  std::map<int, int> bestBy;     // round -> highest stage index in rounds 1..round
  int allcloseRound = 0;         // first round whose candidate passed the plain test (0: none)
  double speedup = 0;            // of its proven kernel on a GPU against the baseline (0: none)
  int rounds = 0;
};

double num(const json &j, const char *k) { return j.is_object() && j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0; }

// Mean over specs of f(n, samples of the spec); null when a spec has no sample.
template <class F> json overSpecs(const std::map<std::string, std::vector<Sample>> &bySpec, F f) {
  if (bySpec.empty())
    return nullptr;
  double sum = 0;
  for (const auto &[spec, ss] : bySpec) {
    if (ss.empty())
      return nullptr;
    std::optional<double> v = f(ss);
    if (!v)
      return nullptr;
    sum += *v;
  }
  return sum / static_cast<double>(bySpec.size());
}

} // namespace

json summarise(const json &bench, const std::vector<json> &rows, size_t tasks) {
  const int rounds = bench.value("rounds", 1);
  const int samples = bench.value("samples", 1);
  std::map<std::string, std::map<int, Sample>> raw;
  for (const json &s : bench.value("specs", json::array()))
    raw[s.value("name", "")];
  json illusion = {{"plain_passed", 0}, {"refuted", 0}, {"undecided", 0}, {"proven", 0}, {"by_kind", json::object()}};
  json tokens = {{"input", 0}, {"output", 0}};
  bool tokensKnown = false;
  std::map<std::string, double> secs;
  int modelErrors = 0, verifierErrors = 0, gpuRuns = 0, cpuRuns = 0, baselined = 0;
  std::map<std::string, json> perSpecIllusions;
  for (const json &row : rows) {
    Sample &s = raw[row.value("spec", "")][row.value("sample", 0)];
    int r = row.value("round", 0);
    int st = stageIndex(row.value("stage", "none"));
    s.best = std::max(s.best, st);
    s.bestBy[r] = std::max(s.bestBy[r], st);
    s.rounds = std::max(s.rounds, r);
    const json a = row.value("allclose", json::object());
    bool passed = a.is_object() && a.value("passed", json()).is_boolean() && a["passed"].get<bool>();
    if (passed && (s.allcloseRound == 0 || r < s.allcloseRound))
      s.allcloseRound = r;
    if (passed) {
      illusion["plain_passed"] = illusion["plain_passed"].get<int>() + 1;
      std::string v = row.value("verdict", json()).is_string() ? row["verdict"].get<std::string>() : "";
      std::string bucket = v == "refuted" ? "refuted" : v == "proven" ? "proven" : "undecided";
      illusion[bucket] = illusion[bucket].get<int>() + 1;
      json &pi = perSpecIllusions[row.value("spec", "")];
      if (!pi.is_object())
        pi = {{"plain_passed", 0}, {"refuted", 0}};
      pi["plain_passed"] = pi["plain_passed"].get<int>() + 1;
      if (bucket == "refuted") {
        pi["refuted"] = pi["refuted"].get<int>() + 1;
        std::string kind = row.value("counterexample_kind", json()).is_string() ? row["counterexample_kind"].get<std::string>() : "?";
        illusion["by_kind"][kind] = illusion["by_kind"].value(kind, 0) + 1;
      }
    }
    const json ran = row.value("ran", json());
    if (ran.is_object()) {
      (ran.value("backend", "") == "gpu" ? gpuRuns : cpuRuns)++;
      if (ran.contains("baseline_ms"))
        ++baselined;
      if (ran.contains("speedup") && ran["speedup"].is_number())
        s.speedup = std::max(s.speedup, ran["speedup"].get<double>());
    }
    if (row.value("tokens", json()).is_object()) {
      tokensKnown = true;
      tokens["input"] = tokens["input"].get<double>() + num(row["tokens"], "input");
      tokens["output"] = tokens["output"].get<double>() + num(row["tokens"], "output");
    }
    const json seconds = row.value("seconds", json::object());
    for (const auto &[k, v] : seconds.items())
      if (v.is_number())
        secs[k] += v.get<double>();
    if (row.contains("model_error"))
      ++modelErrors;
    if (row.value("verifier_error", false))
      ++verifierErrors;
  }
  int pp = illusion["plain_passed"].get<int>();
  illusion["rate"] = pp ? json(illusion["refuted"].get<double>() / pp) : json(nullptr);

  std::map<std::string, std::vector<Sample>> bySpec;
  for (auto &[spec, m] : raw) {
    auto &v = bySpec[spec];
    for (auto &[k, s] : m)
      v.push_back(s);
  }
  std::vector<int> ks;
  for (int k : {1, 5, 10})
    if (k <= samples)
      ks.push_back(k);

  auto reachedBy = [](const Sample &s, int stage, int round) {
    for (const auto &[r, b] : s.bestBy)
      if (r <= round && b >= stage)
        return true;
    return false;
  };
  json passAt = json::object();
  auto passFor = [&](const std::string &name, auto counts) {
    json p = json::object();
    for (int k : ks)
      p[std::to_string(k)] = overSpecs(bySpec, [&](const std::vector<Sample> &ss) -> std::optional<double> {
        int n = static_cast<int>(ss.size());
        if (k > n)
          return std::nullopt;
        int c = 0;
        for (const Sample &s : ss)
          c += counts(s) ? 1 : 0;
        return passAtK(n, c, k);
      });
    passAt[name] = p;
  };
  for (size_t i = 0; i < kStages.size(); ++i)
    passFor(kStages[i], [i](const Sample &s) { return s.best >= static_cast<int>(i); });
  passFor("allclose", [](const Sample &s) { return s.allcloseRound > 0; });

  json repair = json::object();
  for (const std::string &stage : {std::string("safe"), std::string("equivalent"), std::string("allclose")}) {
    json curve = json::array();
    for (int r = 1; r <= rounds; ++r)
      curve.push_back(overSpecs(bySpec, [&](const std::vector<Sample> &ss) -> std::optional<double> {
        int c = 0;
        for (const Sample &s : ss)
          c += (stage == "allclose" ? s.allcloseRound > 0 && s.allcloseRound <= r : reachedBy(s, stageIndex(stage), r)) ? 1 : 0;
        return static_cast<double>(c) / static_cast<double>(ss.size());
      }));
    repair[stage] = curve;
  }

  // "faster" needs a GPU timing and a baseline: without them it is not measured (null), not 0%.
  if (gpuRuns == 0 || baselined == 0)
    for (auto &[k, v] : passAt["faster"].items())
      v = nullptr;
  json fast = json::object();
  if (gpuRuns == 0)
    fast = {{"available", false}, {"why", "no proven kernel was timed on a GPU"}};
  else if (baselined == 0)
    fast = {{"available", false}, {"why", "no baseline time for these specs at these sizes (--baseline FILE)"}};
  else {
    fast["available"] = true;
    for (double p : {0.0, 1.0})
      fast[p == 0 ? "0" : "1"] = overSpecs(bySpec, [&](const std::vector<Sample> &ss) -> std::optional<double> {
        int c = 0;
        for (const Sample &s : ss)
          c += s.best >= stageIndex("ran") && s.speedup > p ? 1 : 0;
        return static_cast<double>(c) / static_cast<double>(ss.size());
      });
  }

  json perSpec = json::array();
  for (const auto &[spec, ss] : bySpec) {
    json c = json::object();
    for (size_t i = 0; i < kStages.size(); ++i) {
      int n = 0;
      for (const Sample &s : ss)
        n += s.best >= static_cast<int>(i) ? 1 : 0;
      c[kStages[i]] = n;
    }
    int ac = 0;
    double roundsToProof = 0;
    int proven = 0;
    for (const Sample &s : ss) {
      ac += s.allcloseRound > 0 ? 1 : 0;
      for (const auto &[r, b] : s.bestBy)
        if (b >= stageIndex("equivalent")) {
          roundsToProof += r, ++proven;
          break;
        }
    }
    c["allclose"] = ac;
    json pi = perSpecIllusions.count(spec) ? perSpecIllusions[spec] : json{{"plain_passed", 0}, {"refuted", 0}};
    perSpec.push_back({{"spec", spec},
                       {"samples", ss.size()},
                       {"reached", c},
                       {"illusions", pi},
                       {"mean_rounds_to_proof", proven ? json(roundsToProof / proven) : json(nullptr)}});
  }

  std::set<std::pair<std::string, int>> done;
  for (const json &row : rows)
    done.insert({row.value("spec", ""), row.value("sample", 0)});
  json out = {{"label", bench.value("label", "")},
              {"provider", bench.value("provider", "")},
              {"model", bench.contains("model") ? bench["model"] : json(nullptr)},
              {"source", bench.value("source", "model")},
              {"note", bench.value("note", "")},
              {"endpoint", bench.value("endpoint", "")},
              {"replayed_from", bench.value("replayed_from", "")},
              {"run", bench.value("run_dir", "")},
              {"specs", bySpec.size()},
              {"samples", samples},
              {"rounds", rounds},
              {"tasks", tasks},
              {"tasks_done", done.size()},
              {"candidates", rows.size()},
              {"ks", ks},
              {"pass_at_k", passAt},
              {"repair", repair},
              {"illusion", illusion},
              {"fast_p", fast},
              {"ran_on", {{"gpu", gpuRuns}, {"interpreter", cpuRuns}}},
              {"per_spec", perSpec},
              {"tokens", tokensKnown ? tokens : json(nullptr)},
              {"seconds", secs},
              {"model_errors", modelErrors},
              {"verifier_errors", verifierErrors}};
  return out;
}

} // namespace ksynth::synth::bench
