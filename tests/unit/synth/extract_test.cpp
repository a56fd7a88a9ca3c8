// Extraction of the candidate from a model's reply: every malformed shape becomes a precise
// problem sentence (never an exception), and what can be checked is checked.
#include "synth/extract.h"

#include <doctest/doctest.h>

using namespace ksynth::synth;

namespace {
const char *kKernel = "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                      "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  if (i < N) C[i] = A[i] + B[i];\n"
                      "}\n";

std::string fenced(const std::string &code, const std::string &lang = "cuda") {
  return "```" + lang + "\n" + code + "```\n";
}

bool anyContains(const std::vector<std::string> &xs, const std::string &needle) {
  for (const std::string &x : xs)
    if (x.find(needle) != std::string::npos)
      return true;
  return false;
}
} // namespace

TEST_CASE("one fenced block with prose around it: the block is the candidate") {
  Extracted e = extractCandidate("Here it is:\n\n" + fenced(kKernel) + "\nIt guards the tail.\n", "vec_add");
  REQUIRE(e.ok);
  CHECK(e.code == kKernel);
  CHECK(e.kernelName == "vec_add");
  CHECK(e.problems.empty());
  CHECK(e.notes.empty());
}

TEST_CASE("no fence at all: a bare kernel is taken whole, with a note; prose alone is a problem") {
  Extracted e = extractCandidate(kKernel, "vec_add");
  CHECK(e.ok);
  CHECK(anyContains(e.notes, "no fenced code block"));
  Extracted p = extractCandidate("I cannot do that.", "vec_add");
  CHECK_FALSE(p.ok);
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].find("no ```cuda fenced block") != std::string::npos);
  CHECK_FALSE(extractCandidate("   \n", "vec_add").ok);
}

TEST_CASE("several blocks: a host-only block is ignored; two blocks with kernels are refused, naming their lines") {
  std::string host = "```cpp\nint main() { return 0; }\n```\n";
  Extracted e = extractCandidate(fenced(kKernel) + "And the host side:\n" + host, "vec_add");
  CHECK(e.ok);
  CHECK(e.code == kKernel);

  std::string two = "First try:\n" + fenced(kKernel) + "Better:\n" + fenced(kKernel);
  Extracted t = extractCandidate(two, "vec_add");
  CHECK_FALSE(t.ok);
  REQUIRE(t.problems.size() == 1);
  CHECK(t.problems[0].find("2 code blocks") != std::string::npos);
  CHECK(t.problems[0].find("line 2 and the block at line 10") != std::string::npos);
}

TEST_CASE("missing launch line: a precise problem; a launch line outside the block is moved in") {
  std::string noLaunch = std::string(kKernel).substr(std::string(kKernel).find('\n') + 1);
  Extracted e = extractCandidate(fenced(noLaunch), "vec_add");
  CHECK_FALSE(e.ok);
  CHECK(anyContains(e.problems, "There is no launch line"));

  Extracted m = extractCandidate("Launch it with `// ksynth:launch grid=((N + 255) / 256) block=(256)`.\n" +
                                     fenced(noLaunch),
                                 "vec_add");
  CHECK(m.ok);
  CHECK(m.code.rfind("// ksynth:launch grid=((N + 255) / 256) block=(256)", 0) == 0);
  CHECK(anyContains(m.notes, "outside the kernel's code block"));

  Extracted bad = extractCandidate(fenced("// ksynth:launch block=(256)\n" + noLaunch), "vec_add");
  CHECK_FALSE(bad.ok);
  CHECK(anyContains(bad.problems, "lacks `grid=(...)`"));
}

TEST_CASE("more than one kernel: refused, naming them; a kernel declaration without a body does not count") {
  std::string code = std::string(kKernel) + "__global__ void helper(float *x) { x[0] = 1; }\n";
  Extracted e = extractCandidate(fenced(code), "vec_add");
  CHECK_FALSE(e.ok);
  CHECK(anyContains(e.problems, "2 `__global__` kernels (`vec_add`, `helper`)"));

  std::string decl = "__global__ void vec_add(const float *A, const float *B, float *C, int N);\n" + std::string(kKernel);
  CHECK(extractCandidate(fenced(decl), "vec_add").ok);
  // In a comment or a string it is no kernel either.
  std::string commented = std::string(kKernel) + "// __global__ void old(float *x) { }\n";
  CHECK(extractCandidate(fenced(commented), "vec_add").ok);
}

TEST_CASE("__launch_bounds__ and extern \"C\" do not hide the kernel's name") {
  std::string code = "// ksynth:launch grid=(N) block=(32)\n"
                     "extern \"C\" __global__ void __launch_bounds__(32) vec_add(const float *A, const float *B, "
                     "float *C, int N) { }\n";
  Extracted e = extractCandidate(fenced(code), "vec_add");
  CHECK(e.ok);
  CHECK(e.kernelName == "vec_add");
  CHECK(globalKernels(code) == std::vector<std::string>{"vec_add"});
}

TEST_CASE("host code mixed in: accepted (the verifier ignores it), with a note naming where") {
  std::string code = std::string(kKernel) + "int main() {\n  vec_add<<<1, 256>>>(0, 0, 0, 0);\n  cudaDeviceSynchronize();\n}\n";
  Extracted e = extractCandidate(fenced(code, "cpp"), "vec_add");
  CHECK(e.ok);
  CHECK(anyContains(e.notes, "`main` at line 6"));
  CHECK(anyContains(e.notes, "`<<<...>>>` launch at line 7"));
}

TEST_CASE("an unclosed block (reply cut off) is taken to the end, with a note; a differently named kernel is noted") {
  std::string code = std::string(kKernel);
  code.replace(code.find("vec_add"), 7, "vadd");
  Extracted e = extractCandidate("```cuda\n" + code, "vec_add");
  CHECK(e.ok);
  CHECK(anyContains(e.notes, "not closed"));
  CHECK(anyContains(e.notes, "named `vadd`, not `vec_add`"));
}
