// The prompt templates: versioned, every placeholder filled, and the task prompt states what
// the issue requires (plain-language spec, its text, signature, launch line, subset, proven).
#include "synth/prompt.h"

#include "verify/spec/parser.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace ksynth;

TEST_CASE("templates: comments stripped, version read from the system template") {
  CHECK(synth::promptVersion() == "v3");
  for (const char *name : {"system", "task", "feedback", "extract_feedback"}) {
    std::string t = synth::promptTemplate(name);
    CHECK_MESSAGE(t.rfind("# ", 0) != 0, name);
    CHECK_MESSAGE(!t.empty(), name);
  }
  std::string missing;
  CHECK(synth::fill("a {{x}} b {{y}}", {{"x", "1"}}, &missing) == "a 1 b {{y}}");
  CHECK(missing == "y");
}

TEST_CASE("the task prompt for matmul_tiled: explanation, spec text, signature, launch line, subset, proven") {
  std::string path = std::string(KSYNTH_SOURCE_DIR) + "/specs/matmul_tiled.smt";
  spec::ParseResult r = spec::parseFile(path);
  REQUIRE(r.spec);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(synth::kernelSignature(*r.spec) ==
        "__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)");
  std::string missing;
  std::string p = synth::taskPrompt(*r.spec, "matmul_tiled.smt", ss.str());
  CHECK(p.find("{{") == std::string::npos);
  CHECK(p.find(spec::explain(*r.spec).substr(0, 60)) != std::string::npos);
  CHECK(p.find("(ensures (C i j) (sum k 0 K (* (A i k) (B k j))))") != std::string::npos);
  CHECK(p.find("__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K);") !=
        std::string::npos);
  CHECK(p.find("// ksynth:launch grid=(GX[, GY[, GZ]]) block=(BX[, BY[, BZ]])") != std::string::npos);
  CHECK(p.find("Not supported") != std::string::npos);
  CHECK(p.find("coverage: every element of every output tensor is written, exactly once") != std::string::npos);
  CHECK(p.find("`M`, `N`, `K`") != std::string::npos);
}
