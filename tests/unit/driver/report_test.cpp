// The one --json schema (verify/driver/report.h): a report built in code against the golden
// file, and fromJson() reading it back.
#include "verify/driver/report.h"

#include "util/files.h"

#include <doctest/doctest.h>

#include <cstdlib>

using namespace ksynth;
using nlohmann::json;

namespace {

const std::string kGolden = std::string(KSYNTH_SOURCE_DIR) + "/tests/unit/driver/golden/report.json";

driver::FileReport sample() {
  driver::FileReport r;
  r.file = "k.cu";
  r.specFile = "k.smt";
  r.specName = "k";
  r.checks = {"race", "bounds", "coverage", "equivalence"};
  r.solver = "Z3 4.8.12";
  r.version = "0.1.0";
  r.verdict = check::Status::Refuted;
  r.ms = 12.5;
  driver::KernelResult k;
  k.report.name = "k";
  k.report.verdict = check::Status::Refuted;
  k.report.launch = "grid=((N + 255) / 256) block=(256)";
  k.report.abstractions = {"expf is the spec's uninterpreted exp"};
  k.report.assumptions = {"spec k: N <= 65536", "inputs are finite"};
  check::Obligation race;
  race.kind = check::Kind::Race;
  race.name = "race.C";
  race.status = check::Status::Proven;
  race.ms = 3;
  race.queries = {"k.race.C.smt2"};
  check::Obligation bounds;
  bounds.kind = check::Kind::Bounds;
  bounds.name = "bounds.A";
  bounds.status = check::Status::Unknown;
  bounds.reason = "nothing declares the size of 'A'";
  bounds.loc = {7, 12};
  check::Obligation cov;
  cov.kind = check::Kind::Coverage;
  cov.name = "coverage.C";
  cov.status = check::Status::Bounded;
  cov.bound = 6;
  cov.reason = "holds for every size with each dim <= 6 only";
  check::Obligation eq;
  eq.kind = check::Kind::Equivalence;
  eq.name = "equivalence.C";
  eq.status = check::Status::Refuted;
  eq.reason = "C[3] differs";
  eq.loc = {9, 5};
  eq.notes = {{ir::Loc{9, 5}, "expected 2, computed 0"}};
  eq.witness = {{"sizes", {{"N", 4}}}, {"element", "C[3]"}};
  k.report.obligations = {race, bounds, cov, eq};
  k.notes = {{"k.cu", 3, 1, "warning", "ignored annotation"}};
  k.ms = 11;
  r.kernels = {k};
  r.cudaToolkit = "/usr/local/cuda-12.4/include";
  return r;
}

} // namespace

TEST_CASE("report: toJson matches the golden schema, and fromJson reads it back") {
  json got = sample().toJson();
  if (const char *u = std::getenv("KSYNTH_UPDATE_GOLDEN"); u && *u == '1')
    REQUIRE(util::writeFileAtomic(kGolden, got.dump(2) + "\n"));
  std::string text;
  REQUIRE(util::readFile(kGolden, text));
  json golden = json::parse(text);
  CHECK(got == golden);
  driver::FileReport back = driver::FileReport::fromJson(golden);
  CHECK(back.toJson() == golden);
  REQUIRE(back.kernels.size() == 1);
  const auto &obl = back.kernels[0].report.obligations;
  REQUIRE(obl.size() == 4);
  CHECK(obl[0].kind == check::Kind::Race);
  CHECK(obl[0].queries == std::vector<std::string>{"k.race.C.smt2"});
  CHECK(obl[2].status == check::Status::Bounded);
  CHECK(obl[2].bound == 6);
  CHECK(obl[3].loc.line == 9);
  CHECK(obl[3].witness["element"] == "C[3]");
  CHECK(back.exitCode() == 1);
  CHECK(back.assumptions() == std::vector<std::string>{"spec k: N <= 65536", "inputs are finite"});
}

TEST_CASE("report: exit codes and the malformed objects") {
  driver::FileReport r = sample();
  for (auto [st, code] : {std::pair{check::Status::Proven, 0}, {check::Status::Refuted, 1},
                          {check::Status::Unknown, 2}, {check::Status::Bounded, 2}}) {
    r.verdict = st;
    CHECK(r.exitCode() == code);
  }
  driver::FileReport bad;
  bad.outcome = driver::FileReport::Outcome::Malformed;
  bad.file = "k.cu";
  bad.specFile = "k.smt";
  CHECK(bad.exitCode() == 65);
  CHECK(bad.toJson().is_null()); // e.g. no kernel in the file: nothing on stdout
  bad.malformedPart = "spec";
  bad.malformedErrors = json::array({{{"line", 1}, {"col", 2}, {"message", "expected ')'"}}});
  json j = bad.toJson();
  CHECK(j["verdict"] == "malformed");
  CHECK(j["spec"] == "k.smt");
  CHECK_FALSE(j.contains("file"));
  CHECK(driver::FileReport::fromJson(j).toJson() == j);
  bad.malformedPart = "kernel";
  bad.malformedErrors = "k.cu:1:1: error: expected expression";
  j = bad.toJson();
  CHECK(j["file"] == "k.cu");
  CHECK_FALSE(j.contains("spec"));
  CHECK(driver::FileReport::fromJson(j).toJson() == j);
  bad.malformedPart = "binding";
  j = bad.toJson();
  CHECK((j.contains("file") && j.contains("spec")));
  CHECK(driver::FileReport::fromJson(j).toJson() == j);
  driver::FileReport usage;
  usage.outcome = driver::FileReport::Outcome::Usage;
  CHECK(usage.exitCode() == 64);
  CHECK(usage.toJson().is_null());
  usage.outcome = driver::FileReport::Outcome::Internal;
  CHECK(usage.exitCode() == 70);
}

TEST_CASE("report: fromJson rejects an unknown obligation kind or status") {
  json j = sample().toJson();
  j["kernels"][0]["obligations"][0]["kind"] = "speed";
  CHECK_THROWS_AS(driver::FileReport::fromJson(j), json::exception);
  j = sample().toJson();
  j["kernels"][0]["obligations"][0]["status"] = "probably";
  CHECK_THROWS_AS(driver::FileReport::fromJson(j), json::exception);
}
