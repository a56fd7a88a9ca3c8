// gpu/: the input generator and element conversions, the spec's operation count, run plans,
// the comparison with the reference, the CPU backend and child processes.
#include "gpu/device.h"
#include "gpu/plan.h"
#include "gpu/run.h"
#include "gpu/values.h"
#include "verify/frontend/frontend.h"
#include "verify/ir/cexpr.h"
#include "verify/spec/parser.h"

#include "frontend/frontend_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>

using namespace ksynth;
using spec::ElemType;

namespace {

ir::Kernel kernelOf(const std::string &code) { return frontend::test::one(code); }

spec::Spec specOf(const std::string &text) {
  spec::ParseResult r = spec::parse(text);
  REQUIRE(r.errors.empty());
  return *r.spec;
}

const char *kVecAddSpec = "(spec vec_add (dims N) (tensor A f32 (N) in) (tensor B f32 (N) in) (tensor C f32 (N) out)"
                          " (ensures (C i) (+ (A i) (B i))))";

struct Bound {
  ir::Kernel k;
  spec::Spec s;
  spec::Binding b;
  gpu::PlanRequest req;
};

Bound bound(const std::string &code, const std::string &specText, const std::string &grid, const std::string &block) {
  Bound x{kernelOf(code), specOf(specText), {}, {}};
  x.b = spec::bind(x.s, x.k);
  REQUIRE(x.b.ok());
  std::string err;
  x.req.grid = {ir::parseCExpr(x.k, grid, err), ir::mkConstInt(1, ir::Type::i64()), ir::mkConstInt(1, ir::Type::i64())};
  x.req.block = {ir::parseCExpr(x.k, block, err), ir::mkConstInt(1, ir::Type::i64()), ir::mkConstInt(1, ir::Type::i64())};
  REQUIRE(x.req.grid[0]);
  REQUIRE(x.req.block[0]);
  return x;
}

const char *kVecAdd = "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  if (i < N) C[i] = A[i] + B[i];\n}\n";

} // namespace

TEST_CASE("inputs are a pure function of (seed, repeat, tensor, element), in range and representable") {
  std::set<double> seen;
  for (int64_t i = 0; i < 2000; ++i) {
    double f32 = gpu::inputValue(7, 3, 1, i, ElemType::F32);
    CHECK(f32 == gpu::inputValue(7, 3, 1, i, ElemType::F32));
    CHECK(f32 >= -1.0);
    CHECK(f32 <= 1.0);
    CHECK(static_cast<double>(static_cast<float>(f32)) == f32);
    seen.insert(f32);
    double h = gpu::inputValue(7, 3, 1, i, ElemType::F16);
    unsigned char buf[8];
    gpu::storeElem(ElemType::F16, h, buf);
    CHECK(gpu::loadElem(ElemType::F16, buf) == h);
    double bf = gpu::inputValue(7, 3, 1, i, ElemType::BF16);
    gpu::storeElem(ElemType::BF16, bf, buf);
    CHECK(gpu::loadElem(ElemType::BF16, buf) == bf);
    double s = gpu::inputValue(7, 3, 1, i, ElemType::I32);
    CHECK(s >= -8);
    CHECK(s <= 8);
    CHECK(gpu::inputValue(7, 3, 1, i, ElemType::U8) >= 0);
  }
  CHECK(seen.size() > 1990); // not a constant
  // Another repeat, tensor or seed gives other values.
  int same = 0;
  for (int64_t i = 0; i < 100; ++i) {
    same += gpu::inputValue(7, 3, 1, i, ElemType::F32) == gpu::inputValue(7, 4, 1, i, ElemType::F32);
    same += gpu::inputValue(7, 3, 1, i, ElemType::F32) == gpu::inputValue(7, 3, 2, i, ElemType::F32);
    same += gpu::inputValue(7, 3, 1, i, ElemType::F32) == gpu::inputValue(8, 3, 1, i, ElemType::F32);
  }
  CHECK(same < 3);
}

TEST_CASE("element conversions: all-ones bytes read as NaN in every float type, -1 in signed integers") {
  unsigned char ones[8];
  std::memset(ones, 0xff, sizeof ones);
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::F64})
    CHECK(std::isnan(gpu::loadElem(t, ones)));
  CHECK(gpu::loadElem(ElemType::I32, ones) == -1);
  CHECK(gpu::loadElem(ElemType::U16, ones) == 65535);
  unsigned char buf[8];
  gpu::storeElem(ElemType::F16, 0.5, buf);
  CHECK(buf[0] == 0x00);
  CHECK(buf[1] == 0x38); // 0x3800
  gpu::storeElem(ElemType::F16, -2.0, buf);
  CHECK(gpu::loadElem(ElemType::F16, buf) == -2.0);
  gpu::storeElem(ElemType::F16, 1e-7, buf); // a half subnormal
  CHECK(std::fabs(gpu::loadElem(ElemType::F16, buf) - 1e-7) < 6e-8);
  gpu::storeElem(ElemType::I64, -123456789012.0, buf);
  CHECK(gpu::loadElem(ElemType::I64, buf) == -123456789012.0);
}

TEST_CASE("the spec's operation count") {
  std::string note;
  spec::Spec mm = specOf("(spec mm (dims M N K) (tensor A f32 (M K) in) (tensor B f32 (K N) in) (tensor C f32 (M N) out)"
                         " (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))");
  // Per element K products and K - 1 additions.
  CHECK(gpu::operationCount(mm, {{"M", 3}, {"N", 5}, {"K", 7}}, note) == doctest::Approx(3 * 5 * (2 * 7 - 1)));
  // softmax: a row's max (C - 1 comparisons) and sum (C subtractions, exps, C - 1 additions)
  // once per row, then a subtraction, an exp and a division per element.
  spec::Spec sm = specOf("(spec sm (dims R C) (tensor X f32 (R C) in) (tensor Y f32 (R C) out)"
                         " (define (rowmax r) (max-over c 0 C (X r c)))"
                         " (define (denom r) (sum c 0 C (exp (- (X r c) (rowmax r)))))"
                         " (ensures (Y r c) (/ (exp (- (X r c) (rowmax r))) (denom r))))");
  double R = 4, C = 10;
  CHECK(gpu::operationCount(sm, {{"R", 4}, {"C", 10}}, note) ==
        doctest::Approx(R * (C - 1) + R * (2 * C + C - 1) + R * C * 3));
  // Index arithmetic is not counted.
  spec::Spec tr = specOf("(spec tr (dims H W) (tensor I f32 (H W) in) (tensor O f32 (W H) out) (ensures (O i j) (I j i)))");
  CHECK(gpu::operationCount(tr, {{"H", 8}, {"W", 8}}, note) == 0);
}

TEST_CASE("plans: sizes, launch, arguments, compared elements, and what is refused") {
  Bound x = bound(kVecAdd, kVecAddSpec, "(N + 255) / 256", "256");
  std::string err;
  x.req.values = {{"N", 1000}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  CHECK(p->grid[0] == 4);
  CHECK(p->block[0] == 256);
  REQUIRE(p->args.size() == 4);
  CHECK(p->args[0].kind == gpu::ArgPlan::Kind::Tensor);
  CHECK(p->args[3].kind == gpu::ArgPlan::Kind::Int);
  CHECK(p->args[3].value == 1000);
  CHECK(p->bytes == 3 * 1000 * 4);
  CHECK(p->tensors[2].all);
  // The plan survives its JSON form.
  auto back = gpu::Plan::fromJson(p->toJson(), err);
  REQUIRE(back);
  CHECK(back->toJson() == p->toJson());
  // Big outputs are sampled: both ends and seeded draws, the same in every repeat.
  x.req.values = {{"N", 50'000'000}};
  x.req.referenceBudget = 1e5;
  x.req.maxChecked = 500;
  p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  CHECK(!p->tensors[2].all);
  CHECK(p->tensors[2].samples == 500);
  std::vector<int64_t> r0 = gpu::comparedElements(*p, 2, 0), r1 = gpu::comparedElements(*p, 2, 1);
  CHECK(r0.size() == 500);
  CHECK(r0.front() == 0);
  CHECK(r0.back() == 50'000'000 - 1);
  CHECK(r0 == gpu::comparedElements(*p, 2, 0)); // both sides of a run derive the same
  CHECK(r0 != r1);                              // other elements in another repeat
  // Nearly every element wanted: all of them (no endless draws).
  x.req.values = {{"N", 1000}};
  x.req.maxChecked = 900;
  p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  CHECK(p->tensors[2].all);
  // Refusals.
  x.req.values = {};
  CHECK(!gpu::makePlan(x.k, x.s, x.b, x.req, err));
  CHECK(err.find("no size for N") != std::string::npos);
  x.req.values = {{"N", 3e9}}; // the int parameter cannot hold it
  CHECK(!gpu::makePlan(x.k, x.s, x.b, x.req, err));
  INFO(err);
  CHECK(err.find("cannot hold") != std::string::npos);
  Bound y = bound(kVecAdd, "(spec vec_add (dims N) (assume (<= N 64)) (tensor A f32 (N) in) (tensor B f32 (N) in)"
                           " (tensor C f32 (N) out) (ensures (C i) (+ (A i) (B i))))",
                  "(N + 255) / 256", "256");
  y.req.values = {{"N", 65}};
  CHECK(!gpu::makePlan(y.k, y.s, y.b, y.req, err));
  CHECK(err.find("outside the spec") != std::string::npos);
  y.req.values = {{"N", 8}, {"Q", 1}};
  CHECK(!gpu::makePlan(y.k, y.s, y.b, y.req, err));
  CHECK(err.find("no dim or scalar 'Q'") != std::string::npos);
}

TEST_CASE("scalars: drawn per repeat, never 0 or +-1; given ones fixed and finite") {
  Bound x = bound("__global__ void saxpy(int N, float a, const float *x, float *y) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < N) y[i] = a * x[i] + y[i];\n}\n",
                  "(spec saxpy (dims N) (scalar a f32) (tensor x f32 (N) in) (tensor y f32 (N) inout)"
                  " (ensures (y i) (+ (* a (x i)) (old y i))))",
                  "(N + 255) / 256", "256");
  std::string err;
  std::set<double> seen;
  for (unsigned seed = 1; seed < 40; ++seed) {
    x.req.values = {{"N", 10}};
    x.req.seed = seed;
    auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
    REQUIRE(p);
    REQUIRE(p->scalars.size() == 7);
    for (const auto &sc : p->scalars) {
      double a = sc.at("a");
      CHECK(a != 0);
      CHECK(std::fabs(a) != 1);
      seen.insert(a);
    }
    CHECK(p->argValue(p->args[1], 3) == p->scalars[3].at("a"));
  }
  CHECK(seen.size() > 10);
  x.req.values = {{"N", 10}, {"a", 0.5}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  for (const auto &sc : p->scalars)
    CHECK(sc.at("a") == 0.5);
  x.req.values = {{"N", 10}, {"a", std::numeric_limits<double>::infinity()}};
  CHECK(!gpu::makePlan(x.k, x.s, x.b, x.req, err));
  CHECK(err.find("finite") != std::string::npos);
}

TEST_CASE("the kernel's own assumptions: checked at the sizes, or listed as unchecked") {
  Bound x = bound("__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                  "  __requires(N % 2 == 0);\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  __assume(i < 100000);\n"
                  "  if (i < N) C[i] = A[i] + B[i];\n}\n",
                  kVecAddSpec, "(N + 255) / 256", "256");
  std::string err;
  x.req.values = {{"N", 7}};
  CHECK(!gpu::makePlan(x.k, x.s, x.b, x.req, err));
  CHECK(err.find("line 2") != std::string::npos);
  x.req.values = {{"N", 8}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  REQUIRE(p->unchecked.size() == 1); // the thread-dependent one
  CHECK(p->unchecked[0].find("line 4") != std::string::npos);
}

TEST_CASE("comparison: tolerance, unwritten (NaN) elements, not-finite references") {
  Bound x = bound(kVecAdd, kVecAddSpec, "(N + 255) / 256", "256");
  std::string err;
  x.req.values = {{"N", 4}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  spec::Inputs in = gpu::inputsOf(*p, x.s, 0);
  std::vector<double> want;
  for (int i = 0; i < 4; ++i)
    want.push_back(in.tensors["A"].data[i] + in.tensors["B"].data[i]);
  std::vector<std::vector<double>> got(3);
  got[2] = want;
  got[2][1] += 1e-9; // within f32's tolerance
  std::vector<gpu::TensorCheck> checks;
  REQUIRE(gpu::compareRepeat(*p, x.s, 0, got, -1, checks, err));
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].compared == 4);
  CHECK(checks[0].mismatched == 0);
  CHECK(checks[0].maxAbs > 0);
  got[2][2] = std::numeric_limits<double>::quiet_NaN();
  got[2][3] += 0.5;
  checks.clear();
  REQUIRE(gpu::compareRepeat(*p, x.s, 0, got, -1, checks, err));
  CHECK(checks[0].mismatched == 2);
  CHECK(checks[0].unwritten == 1);
  CHECK(checks[0].firstMismatch["index"] == nlohmann::json::array({2}));
  // The same outputs against another repeat's inputs are wrong.
  got[2] = want;
  checks.clear();
  REQUIRE(gpu::compareRepeat(*p, x.s, 1, got, -1, checks, err));
  CHECK(checks[0].mismatched > 0);
  // Nothing compared is not agreement.
  gpu::RunReport none;
  none.ran = true;
  none.checks.resize(1);
  CHECK(!none.agrees());
}

TEST_CASE("comparison: where the spec's value is NaN or infinite, the kernel's must be the same") {
  Bound x = bound("__global__ void lg(const float *A, float *C, int N) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < N) C[i] = logf(A[i]);\n}\n",
                  "(spec lg (dims N) (tensor A f32 (N) in) (tensor C f32 (N) out) (ensures (C i) (log (A i))))",
                  "(N + 255) / 256", "256");
  std::string err;
  x.req.values = {{"N", 64}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  spec::Inputs in = gpu::inputsOf(*p, x.s, 0);
  std::vector<std::vector<double>> got(2);
  int negatives = 0;
  for (double a : in.tensors["A"].data) {
    got[1].push_back(std::log(a));
    negatives += a < 0;
  }
  REQUIRE(negatives > 0);
  std::vector<gpu::TensorCheck> checks;
  REQUIRE(gpu::compareRepeat(*p, x.s, 0, got, -1, checks, err));
  CHECK(checks[0].mismatched == 0);
  CHECK(checks[0].compared == 64);
  CHECK(checks[0].notFinite == negatives);
  for (size_t i = 0; i < got[1].size(); ++i)
    if (std::isnan(got[1][i]))
      got[1][i] = 42; // a number where the spec says NaN
  checks.clear();
  REQUIRE(gpu::compareRepeat(*p, x.s, 0, got, -1, checks, err));
  CHECK(checks[0].mismatched == negatives);
}

TEST_CASE("the CPU backend runs the kernel on the interpreter, with poisoned outputs") {
  Bound x = bound(kVecAdd, kVecAddSpec, "(N + 255) / 256", "256");
  std::string err;
  x.req.values = {{"N", 300}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  gpu::RunReport r = gpu::runOnCpu(*p, x.k, x.s, x.b, -1);
  CHECK(r.ran);
  CHECK(r.agrees());
  CHECK(r.repeats == 7);
  CHECK(r.checks[0].compared == 7 * 300);
  CHECK(!r.timed);
  // A kernel that writes only positive sums leaves the rest poisoned.
  Bound y = bound("__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < N && A[i] + B[i] > 0) C[i] = A[i] + B[i];\n}\n",
                  kVecAddSpec, "(N + 255) / 256", "256");
  y.req.values = {{"N", 300}};
  p = gpu::makePlan(y.k, y.s, y.b, y.req, err);
  REQUIRE(p);
  r = gpu::runOnCpu(*p, y.k, y.s, y.b, -1);
  CHECK(r.ran);
  CHECK(!r.agrees());
  CHECK(r.checks[0].unwritten > 0);
  CHECK(r.checks[0].unwritten == r.checks[0].mismatched);
}

TEST_CASE("half precision: f16 tensors and a bf16 scalar, planned and run on the CPU backend") {
  Bound x = bound("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
                  "__global__ void axpy_h(int N, __nv_bfloat16 a, const __half *x, __half *y) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < N) y[i] = __float2half(__bfloat162float(a) * __half2float(x[i])) + y[i];\n}\n",
                  "(spec axpy_h (dims N) (scalar a bf16) (tensor x f16 (N) in) (tensor y f16 (N) inout)"
                  " (ensures (y i) (+ (* a (x i)) (old y i))))",
                  "(N + 127) / 128", "128");
  std::string err;
  x.req.values = {{"N", 200}};
  auto p = gpu::makePlan(x.k, x.s, x.b, x.req, err);
  REQUIRE(p);
  CHECK(p->bytes == 2 * 200 * 2 + 200 * 2); // x read, y read and written: two bytes each
  REQUIRE(p->args.size() == 4);
  CHECK(p->args[1].kind == gpu::ArgPlan::Kind::Float);
  CHECK(p->args[1].bits == 16);
  CHECK(p->args[1].bfloat);
  auto back = gpu::Plan::fromJson(p->toJson(), err);
  REQUIRE(back);
  CHECK(back->args[1].bfloat);
  // The scalar as the GPU receives it: two bytes of bfloat16.
  unsigned char buf[8] = {};
  gpu::storeElem(ElemType::BF16, p->argValue(p->args[1], 0), buf);
  CHECK(gpu::loadElem(ElemType::BF16, buf) == p->argValue(p->args[1], 0));
  gpu::RunReport r = gpu::runOnCpu(*p, x.k, x.s, x.b, -1);
  CHECK(r.ran);
  CHECK(r.agrees());
  CHECK(r.checks[0].compared == 7 * 200);
  // A kernel that drops the old value disagrees, beyond f16's tolerance.
  Bound y = bound("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
                  "__global__ void axpy_h(int N, __nv_bfloat16 a, const __half *x, __half *y) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < N) y[i] = __float2half(__bfloat162float(a) * __half2float(x[i]));\n}\n",
                  "(spec axpy_h (dims N) (scalar a bf16) (tensor x f16 (N) in) (tensor y f16 (N) inout)"
                  " (ensures (y i) (+ (* a (x i)) (old y i))))",
                  "(N + 127) / 128", "128");
  y.req.values = {{"N", 200}};
  p = gpu::makePlan(y.k, y.s, y.b, y.req, err);
  REQUIRE(p);
  r = gpu::runOnCpu(*p, y.k, y.s, y.b, -1);
  CHECK(r.ran);
  CHECK(!r.agrees());
}

TEST_CASE("mangled kernel names") {
  CHECK(gpu::baseName("_Z6matmulPKfS0_Pfiii") == "matmul");
  CHECK(gpu::baseName("_Z12matmul_tiledPKfS0_Pfiii") == "matmul_tiled");
  CHECK(gpu::baseName("vec_add") == "vec_add");
  CHECK(gpu::baseName("_ZN2ns4axpyEPfi") == "axpy");
}
