// Whole-grid execution (interp.h, runGrid) and testing against a spec (equiv/concrete.h), on
// kernels written in CUDA.
#include "verify/equiv/concrete.h"
#include "verify/frontend/frontend.h"
#include "verify/interp/interp.h"
#include "verify/ir/cexpr.h"
#include "verify/spec/parser.h"

#include "frontend/frontend_support.h"
#include "tiled_stencil.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace ksynth;
using interp::Value;

namespace {

ir::Kernel kernelOf(const std::string &code) { return frontend::test::one(code); }

int arrayNamed(const ir::Kernel &k, const std::string &n) {
  for (size_t i = 0; i < k.arrays.size(); ++i)
    if (k.arrays[i].name == n)
      return static_cast<int>(i);
  FAIL("no array " << n);
  return -1;
}

int varNamed(const ir::Kernel &k, const std::string &n) {
  for (size_t i = 0; i < k.vars.size(); ++i)
    if (k.vars[i].name == n && k.vars[i].paramIndex >= 0)
      return static_cast<int>(i);
  FAIL("no parameter " << n);
  return -1;
}

Value fv(double f) { return Value::ofFloat(f); }
Value iv(int64_t i) { return Value::ofInt(i); }

double cell(const interp::GridRun &r, int a, int64_t e) {
  auto it = r.memory.find({a, e});
  REQUIRE(it != r.memory.end());
  return it->second.f;
}

} // namespace

TEST_CASE("runGrid: a shared-memory tree reduction per block sees every barrier") {
  ir::Kernel k = kernelOf(R"(
__global__ void sum(const float *X, float *Y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = X[blockIdx.x * 64 + t];
  __syncthreads();
  for (unsigned st = 32; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) Y[blockIdx.x] = s[0];
})");
  int X = arrayNamed(k, "X"), Y = arrayNamed(k, "Y");
  interp::Env env;
  env.block = {64, 1, 1};
  env.grid = {3, 1, 1};
  for (int64_t i = 0; i < 192; ++i)
    env.memory[{X, i}] = fv(static_cast<double>(i));
  interp::GridRun r = interp::runGrid(k, env);
  REQUIRE(r.completed);
  CHECK(r.faults.empty());
  for (int64_t b = 0; b < 3; ++b) {
    double want = 0;
    for (int64_t i = 0; i < 64; ++i)
      want += static_cast<double>(b * 64 + i);
    CHECK(cell(r, Y, b) == want);
    REQUIRE(r.writers.count({Y, b}));
    CHECK(r.writers.at({Y, b}).threads == std::vector<int64_t>{b * 64}); // thread 0 of block b
  }
}

TEST_CASE("runGrid: __syncwarp orders an exchange inside a warp") {
  ir::Kernel k = kernelOf(R"(
__global__ void rot(const float *X, float *Y) {
  __shared__ float s[32];
  unsigned t = threadIdx.x;
  s[t] = X[t];
  __syncwarp();
  Y[t] = s[(t + 1) % 32];
})");
  int X = arrayNamed(k, "X"), Y = arrayNamed(k, "Y");
  interp::Env env;
  env.block = {32, 1, 1};
  for (int64_t i = 0; i < 32; ++i)
    env.memory[{X, i}] = fv(static_cast<double>(i + 1));
  interp::GridRun r = interp::runGrid(k, env);
  REQUIRE(r.completed);
  for (int64_t i = 0; i < 32; ++i) {
    CHECK(cell(r, Y, i) == static_cast<double>((i + 1) % 32 + 1));
    CHECK(r.memory.at({Y, i}).taint.empty()); // every read cell was written first
  }
}

TEST_CASE("runGrid: an expression of the launch alone has each thread's own value, in every loop trip") {
  // The shuffles repeat the block-linear thread id (evaluated once per thread in a grid run).
  ir::Kernel k = kernelOf(R"(
__global__ void lanes(int *Y, int n) {
  int acc = 0;
  for (int r = 0; r < n; ++r)
    acc += __shfl_xor_sync(0xffffffffu, (int)((threadIdx.x + blockDim.x * threadIdx.y) % 32), r + 1) +
           (int)((threadIdx.x + blockDim.x * threadIdx.y) / 32) * 1000;
  Y[(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = acc;
})");
  int Y = arrayNamed(k, "Y");
  interp::Env env;
  env.block = {16, 4, 1};
  env.grid = {2, 1, 1};
  env.params[varNamed(k, "n")] = iv(3);
  interp::GridRun r = interp::runGrid(k, env);
  REQUIRE(r.completed);
  CHECK(r.faults.empty());
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 64; ++t) {
      int64_t lane = t % 32, want = 0;
      for (int64_t x = 1; x <= 3; ++x)
        want += (lane ^ x) + (t / 32) * 1000;
      auto it = r.memory.find({Y, b * 64 + t});
      REQUIRE(it != r.memory.end());
      CHECK(static_cast<int64_t>(it->second.i) == want);
    }
}

TEST_CASE("runGrid: reads of unwritten shared memory and of poisoned outputs are tainted; garbage shows it") {
  ir::Kernel k = kernelOf(R"(
__global__ void acc(const float *X, float *Y, int n) {
  __shared__ float s[8];
  unsigned t = threadIdx.x;
  if (t < n) s[t] = X[t];
  __syncthreads();
  Y[t] += s[t];
})");
  int X = arrayNamed(k, "X"), Y = arrayNamed(k, "Y");
  interp::Env env;
  env.block = {8, 1, 1};
  env.params[varNamed(k, "n")] = iv(4);
  env.poisoned.insert(Y);
  for (int64_t i = 0; i < 8; ++i)
    env.memory[{X, i}] = fv(1.0);
  interp::GridRun r = interp::runGrid(k, env);
  REQUIRE(r.completed);
  // Y[t] was stale for every t; s[t] is uninitialised for t >= 4.
  CHECK(r.memory.at({Y, 0}).taint.find("stale Y[0]") != std::string::npos);
  CHECK(r.memory.at({Y, 0}).f == 1.0);
  interp::Env env2 = env;
  env2.garbageSet = true;
  env2.garbage = 100.0;
  interp::GridRun r2 = interp::runGrid(k, env2);
  REQUIRE(r2.completed);
  CHECK(cell(r2, Y, 0) == 101.0); // stale Y + X
  CHECK(cell(r2, Y, 5) == 200.0); // stale Y + uninitialised s
}

TEST_CASE("runGrid: atomics accumulate and are marked; plain stores by two threads are both logged") {
  ir::Kernel k = kernelOf(R"(
__global__ void f(const float *X, float *S, float *T) {
  unsigned t = threadIdx.x;
  atomicAdd(S, X[t]);
  T[0] = X[t];
})");
  int X = arrayNamed(k, "X"), S = arrayNamed(k, "S"), T = arrayNamed(k, "T");
  interp::Env env;
  env.block = {4, 1, 1};
  env.grid = {2, 1, 1};
  for (int64_t i = 0; i < 4; ++i)
    env.memory[{X, i}] = fv(static_cast<double>(i));
  env.memory[{S, 0}] = fv(10.0);
  interp::GridRun r = interp::runGrid(k, env);
  REQUIRE(r.completed);
  CHECK(cell(r, S, 0) == 10.0 + 2 * (0 + 1 + 2 + 3));
  CHECK(r.writers.at({S, 0}).atomic);
  CHECK(r.writers.at({S, 0}).threads.size() == 8);
  CHECK_FALSE(r.writers.at({T, 0}).atomic);
  CHECK(r.writers.at({T, 0}).threads.size() == 8);
}

TEST_CASE("runGrid: wideFloats keeps f32 arithmetic in double; faults are collected") {
  ir::Kernel k = kernelOf(R"(
__global__ void f(float *Y, int *Z, int n) {
  Y[0] = 0.1f + 0.2f;
  if (threadIdx.x == 1) Z[n] = 1;
})");
  int Y = arrayNamed(k, "Y"), Z = arrayNamed(k, "Z");
  interp::Env env;
  env.block = {2, 1, 1};
  env.params[varNamed(k, "n")] = iv(3);
  env.lens[Y] = 1;
  env.lens[Z] = 2;
  interp::GridRun narrow = interp::runGrid(k, env);
  CHECK(cell(narrow, Y, 0) == static_cast<double>(0.1f + 0.2f));
  REQUIRE(narrow.faults.size() == 1);
  CHECK(narrow.faults[0].event.kind == interp::EventKind::OutOfBounds);
  CHECK(narrow.faults[0].thread.thread.x == 1);
  env.wideFloats = true;
  interp::GridRun wide = interp::runGrid(k, env);
  CHECK(cell(wide, Y, 0) == static_cast<double>(0.1f) + static_cast<double>(0.2f)); // literals are floats
}

TEST_CASE("runGrid: unsigned wrap-around and int conversions are defined, not faults; a bad shift is") {
  // `c-- > 0` on an unsigned counter ends by wrapping 0 to UINT_MAX, as the language defines.
  ir::Kernel k = kernelOf(R"(
__global__ void f(int *Y, int n, int sh) {
  unsigned c = n;
  int s = 0;
  while (c-- > 0) s += 1;
  unsigned char b = (unsigned char)(n + 255);
  Y[0] = s + b;
  if (threadIdx.x == 1) Y[1] = 1 << sh;
})");
  int Y = arrayNamed(k, "Y");
  interp::Env env;
  env.block = {2, 1, 1};
  env.params[varNamed(k, "n")] = iv(3);
  env.params[varNamed(k, "sh")] = iv(40);
  env.lens[Y] = 2;
  interp::GridRun r = interp::runGrid(k, env);
  CHECK(r.completed);
  REQUIRE(r.memory.count({Y, 0}));
  CHECK(r.memory.at({Y, 0}).i == 3 + 2); // (unsigned char)258 == 2
  REQUIRE(r.faults.size() == 1);  // only the shift by 40
  CHECK(r.faults[0].event.kind == interp::EventKind::Overflow);
  CHECK(r.faults[0].thread.thread.x == 1);
}

TEST_CASE("runGrid: a thread that stops (signed overflow) ends the run with its reason") {
  ir::Kernel k = kernelOf(R"(
__global__ void f(int *Y, int n) {
  Y[threadIdx.x] = n * 65536;
})");
  interp::Env env;
  env.block = {2, 1, 1};
  env.params[varNamed(k, "n")] = iv(1 << 20);
  interp::GridRun r = interp::runGrid(k, env);
  CHECK_FALSE(r.completed);
  CHECK(r.error.find("signed integer overflow") != std::string::npos);
}

TEST_CASE("runGrid: a loop that never ends stops at the grid's step limit, not each thread's") {
  // `s >= 0` always holds for unsigned s: every thread spins through barriers forever. Each
  // thread alone stays under its own limit for a long time; the grid's counts all of them.
  ir::Kernel k = kernelOf(R"(
__global__ void f(float *Y) {
  __shared__ float s[256];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  for (unsigned st = 128; st >= 0; st >>= 1) {
    if (threadIdx.x < st)
      s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  Y[0] = s[0];
})");
  interp::Env env;
  env.block = {256, 1, 1};
  env.maxGridSteps = 200000;
  interp::GridRun r = interp::runGrid(k, env);
  CHECK_FALSE(r.completed);
  CHECK(r.error.find("step limit of the grid run") != std::string::npos);
  CHECK(r.steps <= 200000 + 256);
}

// ---- testing against a spec --------------------------------------------------------------

namespace {

struct Bound {
  spec::Spec s;
  ir::Kernel k;
  spec::Binding b;
  equiv::ConcreteOptions o;
};

Bound bindBoth(const std::string &specText, const std::string &code, const std::string &block,
               const std::string &grid) {
  Bound r;
  spec::ParseResult p = spec::parse(specText);
  REQUIRE(p.errors.empty());
  r.s = *p.spec;
  r.k = kernelOf(code);
  r.b = spec::bind(r.s, r.k);
  REQUIRE(r.b.ok());
  std::string err;
  r.o.block[0] = ir::parseCExpr(r.k, block, err);
  r.o.grid[0] = ir::parseCExpr(r.k, grid, err);
  REQUIRE(r.o.block[0]);
  REQUIRE(r.o.grid[0]);
  return r;
}

const char *kScaleSpec = R"((spec scale (dims N) (assume (<= N 100000))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y i) (* 2.0 (X i)))))";

} // namespace

TEST_CASE("testAgainstSpec: a correct kernel agrees at every size it tries, including a partial block") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = 2.0f * X[i];
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  CHECK(r.outcome == equiv::Outcome::Agrees);
  CHECK(r.unavailable.empty());
  bool partial = false;
  for (const equiv::Sizes &sz : r.agreed)
    partial |= sz.at("N") % 64 != 0 && sz.at("N") > 64;
  CHECK(partial); // 65 comes from the block size
}

TEST_CASE("testAgainstSpec: the budget is in interpreter steps, so the same sizes run on every run") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = 2.0f * X[i];
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport all = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  REQUIRE(all.agreed.size() > 2);
  equiv::ConcreteReport again = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  CHECK(again.agreed == all.agreed);
  t.o.budgetSteps = 1; // the first run alone exceeds it
  equiv::ConcreteReport one = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  REQUIRE(one.agreed.size() == 1);
  CHECK(one.agreed[0] == all.agreed[0]);
}

TEST_CASE("testAgainstSpec: an element no thread writes refutes coverage, naming it") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N - 1) Y[i] = 2.0f * X[i];
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  CHECK(r.outcome == equiv::Outcome::Coverage);
  CHECK(r.headline == "Y[0] is never written (N=1)");
  CHECK(r.witness["element"]["index"] == nlohmann::json{0});
}

TEST_CASE("testAgainstSpec: an infinity where the spec's value is finite is wrong (the relative tolerance "
          "is not infinite)") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float zero = i == 2 ? 0.0f : 1.0f;
  if (i < N) Y[i] = 2.0f * X[i] / zero;
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  REQUIRE(r.outcome == equiv::Outcome::Equivalence);
  CHECK(r.witness["element"]["index"] == nlohmann::json{2});
  CHECK((r.witness["computed"] == "inf" || r.witness["computed"] == "-inf"));
}

TEST_CASE("testAgainstSpec: a wrong value refutes equivalence with both numbers and the inputs") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = X[i] + X[i] + (i == 2 ? 1.0f : 0.0f);
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  REQUIRE(r.outcome == equiv::Outcome::Equivalence);
  CHECK(r.tensor == "Y");
  CHECK(r.witness["element"]["index"] == nlohmann::json{2});
  CHECK(r.witness["sizes"]["N"] == 3); // the smallest size that has element 2
  double x = r.witness["inputs"]["X"]["data"][2];
  CHECK(r.witness["expected"] == 2 * x);
  CHECK(r.witness["computed"] == 2 * x + 1);
  CHECK(r.witness["expected_term"] == "(* 2.0 (X i)) at i = 2");
  CHECK(r.headline.find("= (* 2.0 (X i)) at i = 2") != std::string::npos);
}

TEST_CASE("testAgainstSpec: a store to an input refutes coverage") {
  Bound t = bindBoth(kScaleSpec, R"(
__global__ void scale(float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) { X[i] = 2.0f * X[i]; Y[i] = X[i]; }
})", "64", "(N + 63) / 64");
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  CHECK(r.outcome == equiv::Outcome::Coverage);
  CHECK(r.headline.find("stores to X[0], an input of the spec") != std::string::npos);
}

TEST_CASE("testAgainstSpec: reading uninitialised memory is reported when the output can change") {
  // s[t] for t >= N is never written. Multiplying it by 0 does not hide it: unwritten memory
  // on a GPU may hold NaN, and 0 * NaN is NaN.
  std::string small = kScaleSpec;
  small.replace(small.find("100000"), 6, "64");
  Bound zero = bindBoth(small, R"(
__global__ void scale(const float *X, float *Y, int N) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t < N) s[t] = X[t];
  __syncthreads();
  if (t < N) Y[t] = 2.0f * s[t] + 0.0f * s[63];
})", "64", "1");
  equiv::ConcreteReport r1 = equiv::testAgainstSpec(zero.k, zero.s, zero.b, zero.o);
  CHECK(r1.outcome == equiv::Outcome::Equivalence);
  CHECK(r1.headline.find("when it holds nan") != std::string::npos);
  // Read but never used in the value: not a failure.
  Bound hidden = bindBoth(small, R"(
__global__ void scale(const float *X, float *Y, int N) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t < N) s[t] = X[t];
  __syncthreads();
  float unused = s[63];
  if (t < N) Y[t] = 2.0f * s[t];
})", "64", "1");
  equiv::ConcreteReport r2 = equiv::testAgainstSpec(hidden.k, hidden.s, hidden.b, hidden.o);
  CHECK(r2.outcome == equiv::Outcome::Agrees);
  CHECK_FALSE(r2.agreed.empty());
}

// A halo loaded one column short is wrong only where a block has a right neighbour: the outputs
// are W - 2 wide, so that is W = 35 for tiles of 32, not W = 33 one past the block. The sizes
// where the grid first grows are found from the smallest size the assumptions admit (at H = W = 1
// the grid is empty, and W = 3 would look like its first growth).
TEST_CASE("chooseSizes and tileCrossingSizes: the first sizes where a 2-D grid grows a block") {
  auto bind2 = [&](int loaded) {
    Bound t = bindBoth(test::kTiledStencilSpec, test::tiledStencilKernel(loaded), "32", "(W + 29) / 32");
    std::string err;
    t.o.block[1] = ir::parseCExpr(t.k, "8", err);
    t.o.grid[1] = ir::parseCExpr(t.k, "(H + 5) / 8", err);
    REQUIRE(t.o.block[1]);
    REQUIRE(t.o.grid[1]);
    return t;
  };
  Bound good = bind2(34);
  std::vector<equiv::Sizes> sizes = equiv::chooseSizes(good.k, good.s, good.b, good.o);
  auto has = [&](int64_t h, int64_t w) {
    return std::find(sizes.begin(), sizes.end(), equiv::Sizes{{"H", h}, {"W", w}}) != sizes.end();
  };
  CHECK(has(3, 35));  // W one past the first tile of outputs
  CHECK(has(11, 3));  // H the same
  CHECK(has(35, 35)); // both
  std::vector<equiv::Sizes> crossing = equiv::tileCrossingSizes(good.k, good.s, good.b, good.o);
  REQUIRE(crossing.size() == 1);
  CHECK(crossing[0].at("W") == 35);
  CHECK(crossing[0].at("H") == 11);
  CHECK(equiv::testAgainstSpec(good.k, good.s, good.b, good.o).outcome == equiv::Outcome::Agrees);
  Bound narrow = bind2(33);
  equiv::ConcreteReport r = equiv::testAgainstSpec(narrow.k, narrow.s, narrow.b, narrow.o);
  CHECK(r.outcome == equiv::Outcome::Equivalence);
}

// On a fixed grid a grid-stride loop whose stride is half the grid adds the second half's
// first sweep again in the first half's second sweep: wrong only past one sweep of the grid,
// which is the size a failed proof is retested at.
TEST_CASE("tileCrossingSizes: on a fixed grid, one past the grid's threads") {
  auto kernel = [](const std::string &stride) {
    return R"(
__global__ void scale(const float *X, float *Y, int N) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += )" + stride + R"()
    Y[i] = 2.0f * X[i];
})";
  };
  Bound good = bindBoth(kScaleSpec, kernel("blockDim.x * gridDim.x"), "64", "4");
  std::vector<equiv::Sizes> crossing = equiv::tileCrossingSizes(good.k, good.s, good.b, good.o);
  REQUIRE(crossing.size() == 1); // (no vector access: no size past four sweeps)
  CHECK(crossing[0].at("N") == 257);
  good.o.sizes = crossing;
  CHECK(equiv::testAgainstSpec(good.k, good.s, good.b, good.o).outcome == equiv::Outcome::Agrees);
  Bound half = bindBoth(kScaleSpec, kernel("blockDim.x * 2"), "64", "4");
  half.o.sizes = equiv::tileCrossingSizes(half.k, half.s, half.b, half.o);
  CHECK(equiv::testAgainstSpec(half.k, half.s, half.b, half.o).outcome != equiv::Outcome::Agrees);
  // The same short stride on a float4 path taken where N % 4 == 0: right at N = 257 (the scalar
  // path), wrong past four sweeps, the second size of a kernel with vector accesses.
  Bound half4 = bindBoth(kScaleSpec, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (N % 4 == 0) {
    for (int i = g; i < N / 4; i += blockDim.x * 2) {
      float4 v = reinterpret_cast<const float4 *>(X)[i];
      reinterpret_cast<float4 *>(Y)[i] = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, 2.0f * v.w);
    }
  } else {
    for (int i = g; i < N; i += blockDim.x * gridDim.x)
      Y[i] = 2.0f * X[i];
  }
})", "64", "4");
  std::vector<equiv::Sizes> sizes4 = equiv::tileCrossingSizes(half4.k, half4.s, half4.b, half4.o);
  REQUIRE(sizes4.size() == 2);
  CHECK(sizes4[1].at("N") == 1028);
  half4.o.sizes = {sizes4[0]};
  CHECK(equiv::testAgainstSpec(half4.k, half4.s, half4.b, half4.o).outcome == equiv::Outcome::Agrees);
  half4.o.sizes = {sizes4[1]};
  CHECK(equiv::testAgainstSpec(half4.k, half4.s, half4.b, half4.o).outcome != equiv::Outcome::Agrees);
}

// A 128 x 128 tile per block (8 x 8 outputs per thread) crosses its tile at M = N = 129, where
// K must stay at 3 for the work; K's own slices of 16 are crossed by a second size, K = 17 with
// M = N = 3. A slice loop that skips each slice's last k is wrong only from K = 16 on.
TEST_CASE("tileCrossingSizes: the dims the grid does not grow by, past a tile with the grid small") {
  const char *spec = R"((spec matmul (dims M N K) (assume (<= M 4096) (<= N 4096) (<= K 4096))
  (tensor A f32 (M K) in) (tensor B f32 (K N) in) (tensor C f32 (M N) out)
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j))))))";
  auto bind = [&](const std::string &slice) {
    Bound t = bindBoth(spec, R"(
__global__ void mm(const float *A, const float *B, float *C, int M, int N, int K) {
  int r0 = blockIdx.y * 128 + threadIdx.y * 8, c0 = blockIdx.x * 128 + threadIdx.x * 8;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int r = r0 + i, c = c0 + j;
      if (r < M && c < N) {
        float acc = 0.0f;
        for (int k0 = 0; k0 < K; k0 += 16)
          for (int kk = 0; kk < )" + slice + R"( && k0 + kk < K; ++kk)
            acc += A[r * K + k0 + kk] * B[(k0 + kk) * N + c];
        C[r * N + c] = acc;
      }
    }
})", "16", "(N + 127) / 128");
    std::string err;
    t.o.block[1] = ir::parseCExpr(t.k, "16", err);
    t.o.grid[1] = ir::parseCExpr(t.k, "(M + 127) / 128", err);
    REQUIRE(t.o.block[1]);
    REQUIRE(t.o.grid[1]);
    return t;
  };
  Bound good = bind("16");
  std::vector<equiv::Sizes> crossing = equiv::tileCrossingSizes(good.k, good.s, good.b, good.o);
  REQUIRE(crossing.size() == 2);
  CHECK(crossing[0] == equiv::Sizes{{"K", 3}, {"M", 129}, {"N", 129}});
  CHECK(crossing[1] == equiv::Sizes{{"K", 17}, {"M", 3}, {"N", 3}});
  good.o.sizes = {crossing[1]};
  CHECK(equiv::testAgainstSpec(good.k, good.s, good.b, good.o).outcome == equiv::Outcome::Agrees);
  Bound skips = bind("15");
  skips.o.sizes = {crossing[0]};
  CHECK(equiv::testAgainstSpec(skips.k, skips.s, skips.b, skips.o).outcome == equiv::Outcome::Agrees);
  skips.o.sizes = {crossing[1]};
  CHECK(equiv::testAgainstSpec(skips.k, skips.s, skips.b, skips.o).outcome == equiv::Outcome::Equivalence);
}

// A size whose input has more elements than the tests draw (2^20) is skipped with the reason;
// it was run on the tensors left undrawn, and the process ended on a missing map entry (a row
// sum's coverage example, R = C = 2000).
TEST_CASE("testAgainstSpec: a size too large to draw inputs for is skipped, not run") {
  const char *spec = R"((spec row_sum (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R) out)
  (ensures (Y r) (sum c 0 C (X r c)))))";
  Bound t = bindBoth(spec, R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c) acc += X[r * C + c];
    Y[r] = acc;
  }
})", "64", "(R + 63) / 64");
  t.o.sizes = {equiv::Sizes{{"C", 2000}, {"R", 2000}}, equiv::Sizes{{"C", 3}, {"R", 3}}};
  equiv::ConcreteReport r = equiv::testAgainstSpec(t.k, t.s, t.b, t.o);
  CHECK(r.outcome == equiv::Outcome::Agrees);
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].find("has 4000000 elements") != std::string::npos);
  REQUIRE(r.agreed.size() == 1);
  CHECK(r.agreed[0].at("R") == 3);
}

// A warp per row over a fixed grid of 4 blocks of 64 threads (8 warps): rows warp, warp + 8,
// ... A stride of twice the grid's warps skips rows 8 to 15, wrong only from R = 9 on; the
// failed proof is retested with each dim one past the grid's warps and threads, the other at 3.
TEST_CASE("tileCrossingSizes: on a fixed grid with several dims, each one past the grid's warps and threads") {
  const char *spec = R"((spec row_sum (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R) out)
  (ensures (Y r) (sum c 0 C (X r c)))))";
  auto kernel = [](const std::string &stride) {
    return R"(
__global__ void rows(const float *X, float *Y, int R, int C) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 2 + (threadIdx.x >> 5); r < R; r += )" + stride + R"() {
    float s = 0.0f;
    for (int c = lane; c < C; c += 32)
      s += X[r * C + c];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0)
      Y[r] = s;
  }
})";
  };
  Bound good = bindBoth(spec, kernel("gridDim.x * 2"), "64", "4");
  std::vector<equiv::Sizes> crossing = equiv::tileCrossingSizes(good.k, good.s, good.b, good.o);
  auto has = [&](int64_t r, int64_t c) {
    return std::find(crossing.begin(), crossing.end(), equiv::Sizes{{"C", c}, {"R", r}}) != crossing.end();
  };
  CHECK(has(9, 3));   // R one past the grid's 8 warps
  CHECK(has(257, 3)); // and its 256 threads
  CHECK(has(3, 9));
  CHECK(has(3, 257));
  good.o.sizes = crossing;
  CHECK(equiv::testAgainstSpec(good.k, good.s, good.b, good.o).outcome == equiv::Outcome::Agrees);
  Bound twice = bindBoth(spec, kernel("gridDim.x * 4"), "64", "4");
  twice.o.sizes = {equiv::Sizes{{"C", 3}, {"R", 8}}};
  CHECK(equiv::testAgainstSpec(twice.k, twice.s, twice.b, twice.o).outcome == equiv::Outcome::Agrees);
  twice.o.sizes = equiv::tileCrossingSizes(twice.k, twice.s, twice.b, twice.o);
  CHECK(equiv::testAgainstSpec(twice.k, twice.s, twice.b, twice.o).outcome != equiv::Outcome::Agrees);
}
