// bundle/: a proof bundle written from a report and re-checked with the solver executables;
// this test binary links neither Z3 nor clang, like the re-checker itself.
#include "bundle/bundle.h"
#include "bundle/check.h"

#include "util/files.h"
#include "util/process.h"
#include "util/sha256.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

using namespace ksynth;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A report with one proven obligation resting on `query` (already in DIR/queries).
json report(const std::string &query) {
  json o = {{"kind", "race"}, {"name", "race.a"}, {"status", "proven"}, {"time_ms", 1.0},
            {"queries", json::array({query})}};
  json u = {{"kind", "bounds"}, {"name", "bounds.a"}, {"status", "unknown"}, {"time_ms", 1.0},
            {"reason", "nothing declares the size of 'a'"}};
  json k = {{"name", "k"}, {"verdict", "proven"}, {"launch", "block=(64)"}, {"assumptions", json::array()},
            {"obligations", json::array({o, u})}};
  return {{"tool", "ksynth"}, {"verdict", "proven"}, {"solver", "Z3 test"}, {"checks", json::array({"race"})},
          {"model", "test"}, {"assumptions", json::array()}, {"kernels", json::array({k})}};
}

fs::path freshDir(const std::string &name) {
  fs::path d = fs::temp_directory_path() / ("ksynth_bundle_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d / "queries");
  return d;
}

int check(const fs::path &dir, std::string &out) {
  bundle::CheckOptions co;
  co.dir = dir.string();
  co.solvers = {"z3"};
  co.timeoutS = 20;
  std::ostringstream o, e;
  int rc = bundle::checkBundle(co, o, e);
  out = o.str() + e.str();
  return rc;
}

} // namespace

TEST_CASE("bundle: written, re-checked, and every kind of tampering caught") {
  if (util::findOnPath("z3").empty()) {
    MESSAGE("z3 is not on PATH: the re-check cannot run here");
    return;
  }
  fs::path dir = freshDir("ok");
  fs::path kernel = dir.parent_path() / "ksynth_bundle_test_kernel.cu";
  REQUIRE(util::writeFileAtomic(kernel, "__global__ void k(int *a) {}\n"));
  REQUIRE(util::writeFileAtomic(dir / "queries" / "k.race.a.smt2", "(set-logic ALL)\n(assert false)\n(check-sat)\n"));
  REQUIRE(util::writeFileAtomic(dir / "queries" / "k.unused.smt2", "(check-sat)\n"));
  std::string why;
  REQUIRE(bundle::writeProofBundle(dir.string(), report("k.race.a.smt2"), kernel.string(), "", {"k.cu"}, why));
  CHECK(fs::exists(dir / "proof.json"));
  CHECK(fs::exists(dir / "kernel.cu"));
  CHECK_FALSE(fs::exists(dir / "queries" / "k.unused.smt2")); // no obligation rests on it
  std::string out;
  CHECK(check(dir, out) == 0);
  CHECK(out.find("CHECK-PROOF: OK") != std::string::npos);

  SUBCASE("a changed query fails on its hash (tests/cli/run_proof_tests.py also makes one sat with every hash "
          "recomputed)") {
    REQUIRE(util::writeFileAtomic(dir / "queries" / "k.race.a.smt2", "(check-sat)\n"));
    CHECK(check(dir, out) == 1);
    CHECK(out.find("has changed since the proof") != std::string::npos);
  }
  SUBCASE("a sat query fails on the solver's answer, with every hash recomputed (as a wrong verifier would write it)") {
    std::string sat = "(set-logic ALL)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n";
    REQUIRE(util::writeFileAtomic(dir / "queries" / "k.race.a.smt2", sat));
    std::string text;
    REQUIRE(util::readFile(dir / "proof.json", text));
    json p = json::parse(text);
    p["kernels"][0]["obligations"][0]["queries"][0]["sha256"] = util::sha256Hex(sat);
    p["sha256"] = bundle::selfHash(p);
    REQUIRE(util::writeFileAtomic(dir / "proof.json", p.dump(2)));
    CHECK(check(dir, out) == 1);
    CHECK(out.find("answers 'sat'") != std::string::npos);
    CHECK(out.find("has changed") == std::string::npos); // the hashes all match
  }
  SUBCASE("an edited proof.json fails its own hash") {
    std::string text;
    REQUIRE(util::readFile(dir / "proof.json", text));
    json p = json::parse(text);
    p["verdict"] = "proven";
    p["kernels"][0]["obligations"][1]["status"] = "proven"; // upgrade the unknown obligation
    REQUIRE(util::writeFileAtomic(dir / "proof.json", p.dump(2)));
    CHECK(check(dir, out) == 1);
    CHECK(out.find("its sha256 does not match") != std::string::npos);
  }
  SUBCASE("a changed kernel fails") {
    REQUIRE(util::writeFileAtomic(dir / "kernel.cu", "__global__ void k(int *a) { a[0] = 1; }\n"));
    CHECK(check(dir, out) == 1);
    CHECK(out.find("kernel: ") != std::string::npos);
  }
}

TEST_CASE("bundle: a query file the report names but nobody wrote is an error") {
  fs::path dir = freshDir("missing");
  fs::path kernel = dir / "k.cu";
  REQUIRE(util::writeFileAtomic(kernel, "x"));
  std::string why;
  CHECK_FALSE(bundle::writeProofBundle(dir.string(), report("nope.smt2"), kernel.string(), "", {}, why));
  CHECK(why.find("nope.smt2") != std::string::npos);
}
