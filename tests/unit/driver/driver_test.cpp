// The verification driver end to end on real kernel files: verdicts, the spec obligations,
// and every way a file can fail to be verified (malformed spec, kernel, binding; usage).
#include "verify/driver/driver.h"

#include "util/files.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace ksynth;
namespace fs = std::filesystem;
using Outcome = driver::FileReport::Outcome;

namespace {

const std::string kSrc = KSYNTH_SOURCE_DIR;

const check::Obligation *find(const driver::FileReport &r, const std::string &name) {
  for (const driver::KernelResult &k : r.kernels)
    for (const check::Obligation &o : k.report.obligations)
      if (o.name == name)
        return &o;
  return nullptr;
}

std::string temp(const std::string &name, const std::string &text) {
  fs::path p = fs::temp_directory_path() / ("ksynth_driver_test_" + name);
  REQUIRE(util::writeFileAtomic(p, text));
  return p.string();
}

} // namespace

TEST_CASE("driver: a racy tree reduction is refuted, its fix proven") {
  driver::VerifyRequest req;
  req.file = kSrc + "/examples/reduce_racy.cu";
  req.checks = {"race", "barrier"};
  req.checksSet = true;
  driver::FileReport bad = driver::verifyFile(req);
  REQUIRE(bad.outcome == Outcome::Verified);
  CHECK(bad.verdict == check::Status::Refuted);
  CHECK(bad.exitCode() == 1);
  CHECK(bad.checks == std::set<std::string>{"race", "barrier"});
  bool raceRefuted = false;
  for (const check::Obligation &o : bad.kernels.at(0).report.obligations)
    raceRefuted |= o.kind == check::Kind::Race && o.status == check::Status::Refuted && !o.witness.is_null();
  CHECK(raceRefuted);
  req.file = kSrc + "/examples/reduce.cu";
  driver::FileReport good = driver::verifyFile(req);
  CHECK(good.verdict == check::Status::Proven);
  CHECK(good.exitCode() == 0);
}

TEST_CASE("driver: a spec adds coverage and equivalence, decided by tests and proof") {
  driver::VerifyRequest req;
  req.file = kSrc + "/specs/vec_add.cu";
  req.spec = kSrc + "/specs/vec_add.smt";
  driver::FileReport r = driver::verifyFile(req);
  REQUIRE(r.outcome == Outcome::Verified);
  CHECK(r.specName == "vec_add");
  CHECK(r.checks.count("coverage") == 1);
  CHECK(r.checks.count("equivalence") == 1);
  const check::Obligation *eq = find(r, "equivalence.C");
  REQUIRE(eq != nullptr);
  CHECK(eq->kind == check::Kind::Equivalence);
  CHECK(eq->status == check::Status::Proven);
  CHECK(r.verdict == check::Status::Proven);
  // The JSON the command prints is this report's.
  CHECK(r.toJson()["verdict"] == "proven");
  CHECK(r.toJson()["spec"]["name"] == "vec_add");
}

TEST_CASE("driver: a kernel that stores the wrong value is refuted with a replayed witness") {
  std::string kernel = temp("wrong.cu", "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                                        "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                        "  if (i < N) C[i] = A[i] - B[i];\n"
                                        "}\n");
  driver::VerifyRequest req;
  req.file = kernel;
  req.spec = kSrc + "/specs/vec_add.smt";
  driver::FileReport r = driver::verifyFile(req);
  REQUIRE(r.outcome == Outcome::Verified);
  CHECK(r.verdict == check::Status::Refuted);
  const check::Obligation *eq = find(r, "equivalence.C");
  REQUIRE(eq != nullptr);
  CHECK(eq->status == check::Status::Refuted);
  CHECK(eq->witness.contains("inputs"));
}

TEST_CASE("driver: malformed inputs and usage errors are outcomes, not verdicts") {
  driver::VerifyRequest req;
  SUBCASE("a malformed spec") {
    req.file = kSrc + "/specs/vec_add.cu";
    req.spec = temp("bad.smt", "(spec broken (dims N)\n");
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Malformed);
    CHECK(r.exitCode() == 65);
    CHECK(r.malformedPart == "spec");
    CHECK(r.toJson()["verdict"] == "malformed");
    CHECK(r.errors.find("is malformed") != std::string::npos);
  }
  SUBCASE("a kernel file that does not parse") {
    req.file = temp("bad.cu", "__global__ void k(int *a) { a[0] = ; }\n");
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Malformed);
    CHECK(r.malformedPart == "kernel");
    CHECK(r.toJson()["errors"].is_string());
  }
  SUBCASE("a header that is not found: the note names it and the flag that finds it") {
    req.file = temp("hdr.cu", "#include \"project_common.h\"\n__global__ void k(int *a) { a[0] = 1; }\n");
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Malformed);
    CHECK(r.errors.find("'project_common.h' was not found: give the folder that holds it with -I DIR") !=
          std::string::npos);
  }
  SUBCASE("a kernel that does not match the spec") {
    req.file = temp("other.cu", "__global__ void vec_add(float *X, int N) { }\n");
    req.spec = kSrc + "/specs/vec_add.smt";
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Malformed);
    CHECK(r.malformedPart == "binding");
    CHECK(r.toJson()["errors"].is_array());
  }
  SUBCASE("no kernel") {
    req.file = temp("empty.cu", "int x;\n");
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Malformed);
    CHECK(r.toJson().is_null());
  }
  SUBCASE("coverage without a spec") {
    req.file = kSrc + "/examples/reduce.cu";
    req.checks = {"coverage"};
    req.checksSet = true;
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Usage);
    CHECK(r.exitCode() == 64);
    CHECK(r.usage.find("needs --spec") != std::string::npos);
  }
  SUBCASE("a launch dimension that does not parse") {
    req.file = kSrc + "/examples/reduce.cu";
    req.block = {"256 +"};
    req.blockSet = true;
    driver::FileReport r = driver::verifyFile(req);
    CHECK(r.outcome == Outcome::Usage);
    CHECK(r.errors.find("block dimension") != std::string::npos);
  }
}

TEST_CASE("driver: every query is logged; --stats reports them, and the dumped ones are the obligations'") {
  fs::path dir = fs::temp_directory_path() / "ksynth_driver_test_dump";
  fs::remove_all(dir);
  driver::VerifyRequest req;
  req.file = kSrc + "/specs/vec_add.cu";
  req.spec = kSrc + "/specs/vec_add.smt";
  req.dumpSmt = dir.string();
  req.stats = true;
  driver::FileReport r = driver::verifyFile(req);
  REQUIRE(r.outcome == Outcome::Verified);
  REQUIRE(r.kernels.size() == 1);
  const auto &qs = r.kernels[0].queries;
  CHECK(qs.size() >= 5);
  size_t written = 0;
  for (const smt::QueryRecord &q : qs)
    if (!q.file.empty()) {
      ++written;
      CHECK(fs::exists(dir / q.file));
    }
  CHECK(written >= 4);
  const check::Obligation *race = find(r, "race.C");
  REQUIRE(race != nullptr);
  REQUIRE(race->queries.size() >= 1);
  CHECK(race->queries[0] == "vec_add.race.C.smt2");
  nlohmann::json st = r.toJson()["stats"];
  CHECK(st["queries"] == qs.size());
  CHECK(st["written"] == written);
  CHECK(st["answers"]["unsat"].get<int>() >= 4);
  CHECK(st["slowest"].size() <= 10);
}

TEST_CASE("driver: the bounded fallback's solver queries are in the log too") {
  // |a| written as a conditional: the canonical forms differ from the spec's abs, so the
  // bounded check asks the solver for each element.
  std::string spec = temp("abs.smt", "(spec absum (dims N) (tensor A f32 (N) in) (tensor B f32 (N) in)\n"
                                     "  (tensor C f32 (N) out) (ensures (C i) (+ (abs (A i)) (B i))))\n");
  std::string kernel = temp("abs.cu", "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                                      "__global__ void absum(const float *A, const float *B, float *C, int N) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "  if (i < N) { float a = A[i]; C[i] = (a > 0.0f ? a : -a) + B[i]; }\n"
                                      "}\n");
  driver::VerifyRequest req;
  req.file = kernel;
  req.spec = spec;
  req.boundedOnly = true;
  req.bound = 2;
  driver::FileReport r = driver::verifyFile(req);
  REQUIRE(r.outcome == Outcome::Verified);
  CHECK(r.verdict == check::Status::Bounded);
  int bounded = 0;
  for (const smt::QueryRecord &q : r.kernels.at(0).queries)
    if (q.name.rfind("absum.bounded.", 0) == 0) {
      ++bounded;
      CHECK(q.status == smt::Status::Unsat);
      CHECK(q.file.empty()); // a search step: never written
    }
  CHECK(bounded >= 2);
}

TEST_CASE("driver: progress reports each kernel as it is verified, the rest as timed out") {
  std::string f = temp("progress.cu", "__global__ void racy(float *o) { o[0] = threadIdx.x; }\n"
                                      "__global__ void fine(float *o) { o[threadIdx.x] = 1.0f; }\n");
  driver::VerifyRequest req;
  req.file = f;
  req.checks = {"race"};
  req.checksSet = true;
  req.block = {"32"};
  req.blockSet = true;
  req.grid = {"1"};
  req.gridSet = true;
  std::vector<driver::FileReport> seen;
  req.progress = [&](const driver::FileReport &r) { seen.push_back(r); };
  driver::FileReport r = driver::verifyFile(req);
  REQUIRE(seen.size() == 3); // before the first kernel, after each
  for (const driver::FileReport &s : seen)
    REQUIRE(s.kernels.size() == 2);
  auto timedOut = [](const driver::KernelResult &k) {
    return k.report.verdict == check::Status::Unknown && !k.report.obligations.empty() &&
           k.report.obligations[0].reason.find("time limit of the command") != std::string::npos;
  };
  CHECK(timedOut(seen[0].kernels[0]));
  CHECK(timedOut(seen[0].kernels[1]));
  CHECK(seen[0].verdict == check::Status::Unknown);
  CHECK(seen[1].kernels[0].report.verdict == check::Status::Refuted);
  CHECK(timedOut(seen[1].kernels[1]));
  CHECK(seen[1].verdict == check::Status::Refuted); // what a command ended here would exit with
  CHECK(seen[2].kernels[1].report.verdict == check::Status::Proven);
  CHECK(seen[2].verdict == r.verdict);
  CHECK(r.kernels.size() == 2);
}
