// Fused and rounding-mode intrinsics lower to the exact operations they stand for over the
// reals; approximate ones (__expf) stay calls, which the prover reads as the spec's function
// and reports as an approximation.
#include "frontend_support.h"

using namespace ksynth::ir;
using namespace ksynth::frontend::test;

namespace {

// The value stored by the kernel's only store (shared: it outlives the kernel).
ExprPtr stored(const Kernel &k) {
  auto st = stmts(k, StmtKind::Store);
  REQUIRE(st.size() == 1);
  return st[0]->value;
}

Kernel oneStore(const std::string &expr) {
  return one("__global__ void k(float *out, float a, float b, float c) {\n  out[0] = " + expr + ";\n}\n");
}

} // namespace

TEST_CASE("fmaf is a * b + c; __fdividef, __fdiv_rn and __frcp_rn divide; __fadd_rn, __fsub_rn, __fmul_rn are "
          "their operation") {
  ExprPtr fma = stored(oneStore("fmaf(a, b, c)"));
  REQUIRE(fma->op == Op::Add);
  CHECK(fma->args[0]->op == Op::Mul);
  for (const char *s : {"__fmaf_rn(a, b, c)"})
    CHECK(stored(oneStore(s))->op == Op::Add);
  CHECK(stored(oneStore("__fdividef(a, b)"))->op == Op::Div);
  CHECK(stored(oneStore("__fdiv_rn(a, b)"))->op == Op::Div);
  ExprPtr rcp = stored(oneStore("__frcp_rn(a)"));
  REQUIRE(rcp->op == Op::Div);
  CHECK(rcp->args[0]->op == Op::Const);
  CHECK(rcp->args[0]->fval == 1.0);
  CHECK(stored(oneStore("__fadd_rn(a, b)"))->op == Op::Add);
  CHECK(stored(oneStore("__fsub_rn(a, b)"))->op == Op::Sub);
  CHECK(stored(oneStore("__fmul_rn(a, b)"))->op == Op::Mul);
}

TEST_CASE("__fsqrt_rn and __frsqrt_rn are sqrtf and rsqrtf; __saturatef clamps to [0, 1]; __expf stays a call") {
  ExprPtr sq = stored(oneStore("__fsqrt_rn(a)"));
  REQUIRE(sq->op == Op::Call);
  CHECK(sq->name == "sqrtf");
  CHECK(stored(oneStore("__frsqrt_rn(a)"))->name == "rsqrtf");
  ExprPtr sat = stored(oneStore("__saturatef(a)"));
  REQUIRE(sat->op == Op::Min);
  CHECK(sat->args[0]->op == Op::Max);
  ExprPtr ex = stored(oneStore("__expf(a)"));
  REQUIRE(ex->op == Op::Call);
  CHECK(ex->name == "__expf");
}
