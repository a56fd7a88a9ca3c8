// Half precision (__half, __nv_bfloat16, their pairs and intrinsics), struct-returning calls
// (the intrinsics are prelude functions with bodies, inlined like the file's own), __ldg and
// make_float4: lowered, then run on the interpreter, which rounds each result to its type.
#include "frontend_support.h"
#include "run_block.h"

#include "util/float16.h"

#include <cmath>

using namespace ksynth;
using namespace ksynth::ir;
using namespace ksynth::frontend::test;

namespace {

// out[i] after running `body` in one thread (out: float *).
std::vector<double> outputs(const std::string &prologue, const std::string &body, int cells) {
  Kernel k = one(prologue + "__global__ void k(float *out) {\n" + body + "\n}\n");
  int out = -1;
  interp::GridRun run = runOneBlock(k, 1, cells, out);
  std::vector<double> r;
  for (int i = 0; i < cells; ++i) {
    auto it = run.memory.find({out, i});
    REQUIRE(it != run.memory.end());
    r.push_back(it->second.f);
  }
  return r;
}

} // namespace

TEST_CASE("__half and __nv_bfloat16 pointers are f16 and bf16 arrays; the pairs are two of them") {
  Kernel k = one("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
                 "__global__ void k(const half *a, __nv_bfloat16 *b, const __half2 *c) {\n"
                 "  b[0] = (float)(a[0] + c[0].y);\n}\n");
  CHECK(k.arrays[k.findParamArray("a")].elem == Type::f16());
  CHECK(k.arrays[k.findParamArray("b")].elem == Type::bf16());
  CHECK(!(Type::f16() == Type::bf16()));
  CHECK(Type::bf16().str() == "bf16");
  // The pair pointer is one f16 array per field.
  int cx = arrayNamed(k, "c.x"), cy = arrayNamed(k, "c.y");
  REQUIRE(cx >= 0);
  REQUIRE(cy >= 0);
  CHECK(k.arrays[cy].elem == Type::f16());
}

TEST_CASE("each half operation is rounded to half, each bfloat16 one to bfloat16") {
  std::vector<double> v = outputs("", R"(
  __half third = 1.0f / 3.0f;
  out[0] = third;
  __nv_bfloat16 bthird = __float2bfloat16(1.0f / 3.0f);
  out[1] = __bfloat162float(bthird);
  __half h = 2048;
  h = h + (__half)1;          // 2049 is not a half: ties to even, 2048
  out[2] = __half2float(h);
  out[3] = __half2float(__hadd((__half)2048, (__half)3)); // 2051 -> 2052
  out[4] = __half2float(__float2half(70000.0f));          // past 65504: infinity
  )",
                                  5);
  CHECK(v[0] == util::roundToHalf(1.0 / 3));
  CHECK(v[0] != static_cast<double>(1.0f / 3.0f));
  CHECK(v[1] == 0.333984375);
  CHECK(v[2] == 2048);
  CHECK(v[3] == 2052);
  CHECK(std::isinf(v[4]));
}

TEST_CASE("__half2 and __nv_bfloat162 intrinsics compute both halves") {
  std::vector<double> v = outputs("", R"(
  __half2 p = __floats2half2_rn(1.5f, -2.0f);
  __half2 q = __hfma2(p, p, p);         // (3.75, 2)
  out[0] = __low2float(q);
  out[1] = __high2float(q);
  float2 f = __half22float2(__hmul2(q, __halves2half2(__float2half(2.0f), __float2half(0.5f))));
  out[2] = f.x;                         // 7.5
  out[3] = f.y;                         // 1
  __nv_bfloat162 b = __floats2bfloat162_rn(3.0f, 5.0f);
  b = __hsub2(b, __bfloat162bfloat162(__float2bfloat16(1.0f)));
  out[4] = __low2float(b) + __high2float(b); // 2 + 4
  __half2 s = p + q;                    // operator+ on pairs: (5.25, 0)
  out[5] = __low2float(s) - __high2float(s);
  )",
                                  6);
  CHECK(v[0] == 3.75);
  CHECK(v[1] == 2);
  CHECK(v[2] == 7.5);
  CHECK(v[3] == 1);
  CHECK(v[4] == 6);
  CHECK(v[5] == 5.25);
}

TEST_CASE("a device function returning a struct: every return initialises the call's value") {
  std::vector<double> v = outputs(R"(
struct P { float a, b; };
__device__ P mk(float x) {
  if (x > 0)
    return {x, 2 * x};
  P z;
  z.a = -1;
  z.b = -2;
  return z;
}
__device__ P swap(P p) { return P{p.b, p.a}; }
)",
                                  R"(
  P p = mk(3.0f);
  out[0] = p.a + p.b;         // 9
  P q = swap(mk(-1.0f));
  out[1] = q.a;               // -2
  out[2] = mk(5.0f).b;        // 10
  )",
                                  3);
  CHECK(v[0] == 9);
  CHECK(v[1] == -2);
  CHECK(v[2] == 10);
}

TEST_CASE("__ldg reads like a plain load, also through a float4 view; make_float4 builds one") {
  std::vector<double> v = outputs("", R"(
  *reinterpret_cast<float4 *>(out + 4) = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  float4 r = __ldg(reinterpret_cast<const float4 *>(out + 4));
  out[0] = r.x + r.w;         // 5
  out[1] = __ldg(out + 5);    // 2
  __stcs(out + 2, 7.0f);
  out[3] = 0;
  )",
                                  8);
  CHECK(v[0] == 5);
  CHECK(v[1] == 2);
  CHECK(v[2] == 7);
  CHECK(v[6] == 3);
}

TEST_CASE("a struct-returning function without a body: each field some invented value, never a guess") {
  frontend::ParseResult r = parse("struct P { float a, b; };\n__device__ P ext(float x);\n"
                        "__global__ void k(float *out) { P p = ext(1.0f); out[0] = p.a; }\n");
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  CHECK(stmts(r.kernels[0], StmtKind::Unsupported).empty());
  std::vector<std::string> havocked;
  for (const ir::Stmt *s : stmts(r.kernels[0], StmtKind::Havoc))
    havocked.push_back(s->text);
  CHECK(havocked == std::vector<std::string>{"the result of 'ext(1.0f).a'", "the result of 'ext(1.0f).b'"});
  bool warned = false;
  for (const auto &d : r.notes[0])
    warned |= d.message.find("call to 'ext', which has no body") != std::string::npos;
  CHECK(warned);
  // It could write through a pointer argument: refused.
  frontend::ParseResult w = parse("struct P { float a, b; };\n__device__ P ext(float *x);\n"
                        "__global__ void k(float *out) { P p = ext(out); out[0] = p.a; }\n");
  REQUIRE(w.kernels.size() == 1);
  CHECK(!stmts(w.kernels[0], StmtKind::Unsupported).empty());
}
