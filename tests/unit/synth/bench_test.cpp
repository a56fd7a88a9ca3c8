// The bench metrics (synth/bench_metrics.h) on hand-made rows whose answers are worked out
// here, and the report's honesty about where replies came from.
#include "synth/bench.h"
#include "synth/bench_metrics.h"
#include "synth/bench_report.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace ksynth::synth::bench;
using nlohmann::json;

namespace {

// C(n, k) as a double, for the estimator's definition.
double choose(int n, int k) {
  if (k < 0 || k > n)
    return 0;
  double c = 1;
  for (int i = 1; i <= k; ++i)
    c = c * (n - k + i) / i;
  return c;
}

json row(const std::string &spec, int sample, int round, const std::string &stage, const std::string &verdict,
         json plain, const std::string &kind = "") {
  return {{"spec", spec},
          {"sample", sample},
          {"round", round},
          {"stage", stage},
          {"verdict", verdict.empty() ? json(nullptr) : json(verdict)},
          {"counterexample_kind", kind.empty() ? json(nullptr) : json(kind)},
          {"allclose", {{"passed", plain}}},
          {"tokens", {{"input", 10}, {"output", 5}}},
          {"seconds", {{"model", 1.0}, {"verify", 0.5}}}};
}

json benchOf(int samples, int rounds) {
  return {{"samples", samples},
          {"rounds", rounds},
          {"provider", "openai-compatible"},
          {"model", "scripted"},
          {"source", "model"},
          {"specs", json::array({{{"name", "a"}}, {{"name", "b"}}})}};
}

} // namespace

TEST_CASE("pass@k is the unbiased estimator 1 - C(n-c,k)/C(n,k)") {
  for (int n = 1; n <= 12; ++n)
    for (int c = 0; c <= n; ++c)
      for (int k = 1; k <= n; ++k) {
        double want = 1.0 - choose(n - c, k) / choose(n, k);
        CHECK(std::fabs(passAtK(n, c, k) - want) < 1e-12);
      }
  CHECK(passAtK(10, 0, 5) == 0.0);
  CHECK(passAtK(10, 10, 1) == 1.0);
  CHECK(std::fabs(passAtK(10, 3, 1) - 0.3) < 1e-12);
  CHECK(std::fabs(passAtK(5, 1, 2) - 0.4) < 1e-12); // 1 - C(4,2)/C(5,2) = 1 - 6/10
}

TEST_CASE("summarise: stages per sample, repair curves, illusions") {
  // Spec a, 2 samples: sample 1 racy in round 1 (passes the plain test: an illusion), proven
  // in round 2; sample 2 out of bounds twice (fails the plain test). Spec b, 2 samples:
  // sample 1 proven in round 1; sample 2 no kernel, then a kernel that does not parse.
  std::vector<json> rows = {
      row("a", 1, 1, "parses", "refuted", true, "race"),   row("a", 1, 2, "ran", "proven", true),
      row("a", 2, 1, "parses", "refuted", false, "bounds"), row("a", 2, 2, "parses", "refuted", false, "bounds"),
      row("b", 1, 1, "ran", "proven", true),                row("b", 2, 1, "none", "", nullptr),
      row("b", 2, 2, "extracted", "malformed", false)};
  json s = summarise(benchOf(2, 2), rows, 4);
  CHECK(s["tasks_done"] == 4);
  CHECK(s["candidates"] == 7);
  CHECK(s["ks"] == json::array({1}));
  // pass@1 = mean over specs of c/n.
  CHECK(s["pass_at_k"]["extracted"]["1"].get<double>() == doctest::Approx((2.0 / 2 + 2.0 / 2) / 2));
  CHECK(s["pass_at_k"]["parses"]["1"].get<double>() == doctest::Approx((2.0 / 2 + 1.0 / 2) / 2));
  CHECK(s["pass_at_k"]["safe"]["1"].get<double>() == doctest::Approx((1.0 / 2 + 1.0 / 2) / 2));
  CHECK(s["pass_at_k"]["equivalent"]["1"].get<double>() == doctest::Approx(0.5));
  CHECK(s["pass_at_k"]["ran"]["1"].get<double>() == doctest::Approx(0.5));
  CHECK(s["pass_at_k"]["faster"]["1"].is_null()); // no GPU timing: not measured, not 0%
  CHECK(s["pass_at_k"]["allclose"]["1"].get<double>() == doctest::Approx(0.5));
  // Repair: after round 1 only b's sample 1 is proven (1/2 for b, 0 for a).
  CHECK(s["repair"]["equivalent"][0].get<double>() == doctest::Approx(0.25));
  CHECK(s["repair"]["equivalent"][1].get<double>() == doctest::Approx(0.5));
  CHECK(s["repair"]["allclose"][0].get<double>() == doctest::Approx(0.5));
  // Illusions: 3 candidates passed the plain test; the racy one is refuted.
  CHECK(s["illusion"]["plain_passed"] == 3);
  CHECK(s["illusion"]["refuted"] == 1);
  CHECK(s["illusion"]["proven"] == 2);
  CHECK(s["illusion"]["rate"].get<double>() == doctest::Approx(1.0 / 3));
  CHECK(s["illusion"]["by_kind"] == json{{"race", 1}});
  CHECK(s["fast_p"]["available"] == false);
  CHECK(s["tokens"]["input"].get<double>() == 70);
}

TEST_CASE("summarise: an unfinished spec leaves pass@k unknown rather than guessed") {
  std::vector<json> rows = {row("a", 1, 1, "ran", "proven", true)};
  json s = summarise(benchOf(1, 1), rows, 2);
  CHECK(s["tasks_done"] == 1);
  CHECK(s["pass_at_k"]["equivalent"]["1"].is_null());
}

TEST_CASE("fast_p counts proven kernels timed on a GPU against the baseline") {
  json r1 = row("a", 1, 1, "faster", "proven", true);
  r1["ran"] = {{"backend", "gpu"}, {"result", "PASS"}, {"median_ms", 1.0}, {"baseline_ms", 2.0}, {"speedup", 2.0}};
  json r2 = row("a", 2, 1, "ran", "proven", true);
  r2["ran"] = {{"backend", "gpu"}, {"result", "PASS"}, {"median_ms", 4.0}, {"baseline_ms", 2.0}, {"speedup", 0.5}};
  json b = benchOf(2, 1);
  b["specs"] = json::array({{{"name", "a"}}});
  json s = summarise(b, {r1, r2}, 2);
  CHECK(s["fast_p"]["available"] == true);
  CHECK(s["fast_p"]["0"].get<double>() == doctest::Approx(1.0));
  CHECK(s["fast_p"]["1"].get<double>() == doctest::Approx(0.5));
  CHECK(s["pass_at_k"]["faster"]["1"].get<double>() == doctest::Approx(0.5));
}

TEST_CASE("the report says where the replies came from") {
  json b = benchOf(1, 1);
  b["source"] = "replay";
  b["replayed_from"] = "/runs/old";
  json s = summarise(b, {row("a", 1, 1, "ran", "proven", true)}, 2);
  std::string html = htmlReport({s}), md = markdownReport({s});
  CHECK(html.find("replayed from the transcripts recorded by the run /runs/old") != std::string::npos);
  CHECK(md.find("no model was asked anything") != std::string::npos);
  CHECK(html.find("<svg class=\"chart pass\"") != std::string::npos);
  CHECK(html.find("<svg class=\"chart repair\"") != std::string::npos);
  CHECK(html.find("<svg class=\"chart illusion\"") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http") == std::string::npos); // nothing fetched
  b["source"] = "fixture";
  md = markdownReport({summarise(b, {}, 2)});
  CHECK(md.find("written by hand") != std::string::npos);
}

TEST_CASE("shards split the tasks without overlap") {
  json b = benchOf(3, 1);
  std::vector<Task> all = tasks(b);
  REQUIRE(all.size() == 6);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 4; ++i)
    for (const Task &t : shardTasks(all, i, 4))
      ++seen[static_cast<size_t>((t.spec == "a" ? 0 : 3) + t.sample - 1)];
  CHECK(seen == std::vector<int>(6, 1));
}

namespace {

void writeJson(const std::filesystem::path &p, const json &j) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << j.dump(2) << "\n";
}

// A sample's directory as the loop leaves it: round 1 racy, round 2 malformed, round 3 proven
// and run; `backend` and `dims` are the proven kernel's run's.
std::filesystem::path sampleDir(const std::string &backend, const json &dims) {
  static int n = 0;
  std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("ksynth-bench-unit-" + std::to_string(getpid()) + "-" + std::to_string(n++));
  std::filesystem::remove_all(d);
  json rounds = json::array(
      {{{"round", 1}, {"stage", "verify"}, {"verdict", "refuted"}, {"tokens", {{"input", 7}, {"output", 3}}}, {"time_ms", {{"model", 2000}, {"verify", 500}}}},
       {{"round", 2}, {"stage", "verify"}, {"verdict", "malformed"}},
       {{"round", 3}, {"stage", "verify"}, {"verdict", "proven"}}});
  writeJson(d / "report.json", {{"status", "proven"}, {"proven_round", 3}, {"rounds", rounds},
                                {"run", {{"result", "PASS"}, {"backend", backend}, {"median_ms", 0.5}}}});
  writeJson(d / "kernel-run.json", {{"plan", {{"dims", dims}}}});
  writeJson(d / "round-1" / "report.json",
            {{"kernels", json::array({{{"obligations", json::array({{{"kind", "race"}, {"status", "refuted"}},
                                                                    {{"kind", "bounds"}, {"status", "proven"}},
                                                                    {{"kind", "equivalence"}, {"status", "unknown"}}})}}})}});
  writeJson(d / "round-1" / "allclose.json", {{"passed", true}, {"result", "PASS"}, {"backend", backend}, {"time_ms", 250}});
  writeJson(d / "round-2" / "allclose.json", {{"passed", false}, {"why", "does not parse"}});
  writeJson(d / "round-3" / "report.json",
            {{"kernels", json::array({{{"obligations", json::array({{{"kind", "race"}, {"status", "proven"}},
                                                                    {{"kind", "equivalence"}, {"status", "proven"}}})}}})}});
  writeJson(d / "round-3" / "allclose.json", {{"passed", true}, {"result", "PASS"}, {"backend", backend}});
  return d;
}

} // namespace

TEST_CASE("taskRows: the stage of each round's candidate, and faster only against a baseline at the same sizes") {
  json bench = benchOf(1, 3);
  bench["baseline"] = json::array({{{"op", "vec_add"}, {"sizes", {{"N", 1024}}}, {"median_ms", 1.0}}});
  Task t{"vec_add", "/specs/vec_add.smt", 1};

  std::filesystem::path d = sampleDir("gpu", {{"N", 1024}});
  std::vector<json> rows = taskRows(bench, t, d);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["stage"] == "parses"); // refuted race: not safe
  CHECK(rows[0]["counterexample_kind"] == "race");
  CHECK(rows[0]["undecided"] == json::array({"equivalence"}));
  CHECK(rows[0]["allclose"]["passed"] == true);
  CHECK(rows[0]["seconds"]["model"].get<double>() == doctest::Approx(2.0));
  CHECK(rows[0]["seconds"]["plain_test"].get<double>() == doctest::Approx(0.25));
  CHECK(rows[0]["final"] == false);
  CHECK(rows[1]["stage"] == "extracted"); // does not parse
  CHECK(rows[1]["allclose"]["passed"] == false);
  CHECK(rows[2]["stage"] == "faster");
  CHECK(rows[2]["final"] == true);
  CHECK(rows[2]["ran"]["speedup"].get<double>() == doctest::Approx(2.0));
  std::filesystem::remove_all(d);

  // The baseline was timed at other sizes: not comparable, so only "ran".
  d = sampleDir("gpu", {{"N", 4096}});
  rows = taskRows(bench, t, d);
  CHECK(rows[2]["stage"] == "ran");
  CHECK_FALSE(rows[2]["ran"].contains("baseline_ms"));
  std::filesystem::remove_all(d);

  // Run on the interpreter: never faster, whatever the numbers.
  d = sampleDir("cpu", {{"N", 1024}});
  rows = taskRows(bench, t, d);
  CHECK(rows[2]["stage"] == "ran");
  CHECK(rows[2]["ran"]["backend"] == "cpu");
  std::filesystem::remove_all(d);
}
