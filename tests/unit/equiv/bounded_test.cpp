// The bounded fallback (equiv/bounded.h): exact agreement on symbolic inputs at every size up
// to a bound, and replayed refutations. Each kernel that must agree has a twin that must not.
#include "verify/equiv/bounded.h"
#include "verify/frontend/frontend.h"
#include "verify/ir/cexpr.h"
#include "verify/spec/parser.h"

#include <doctest/doctest.h>

using namespace ksynth;
using Result = equiv::BoundedReport::Result;

namespace {

struct Case {
  spec::Spec s;
  ir::Kernel k;
  spec::Binding b;
  equiv::BoundedOptions o;
};

Case setUp(const std::string &specText, const std::string &code, const std::string &block, const std::string &grid,
           int bound) {
  Case c;
  spec::ParseResult p = spec::parse(specText);
  INFO(specText);
  REQUIRE(p.errors.empty());
  c.s = *p.spec;
  frontend::ParseResult r = frontend::parseSource(code, "t.cu", {});
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  c.k = r.kernels[0];
  c.b = spec::bind(c.s, c.k);
  REQUIRE(c.b.ok());
  std::string err;
  c.o.block[0] = ir::parseCExpr(c.k, block, err);
  c.o.grid[0] = ir::parseCExpr(c.k, grid, err);
  REQUIRE(c.o.block[0]);
  REQUIRE(c.o.grid[0]);
  c.o.bound = bound;
  c.o.budgetSeconds = 60;
  return c;
}

equiv::BoundedReport check(const Case &c) { return equiv::boundedCheck(c.k, c.s, c.b, c.o); }

const char *kScanSpec = R"((spec scan (dims N) (assume (<= N 8))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y i) (sum k 0 (+ i 1) (X k)))))";

std::string scanKernel(const char *firstStore) {
  return std::string(R"(
__global__ void scan(const float *X, float *Y, int N) {
  __shared__ float buf[2][8];
  int t = threadIdx.x;
  )") + firstStore + R"(
  __syncthreads();
  for (int d = 0; d < 3; ++d) {
    float v = buf[d % 2][t];
    if (t >= (1 << d)) v += buf[d % 2][t - (1 << d)];
    buf[(d + 1) % 2][t] = v;
    __syncthreads();
  }
  if (t < N) Y[t] = buf[1][t];
})";
}

const char *kRowMaxSpec = R"((spec rowmax (dims R C) (assume (<= R 64) (<= C 64))
  (tensor X f32 (R C) in) (tensor M f32 (R) out)
  (ensures (M r) (max-over c 0 C (X r c)))))";

const char *kArgmaxSpec = R"((spec amax (dims R C) (assume (<= R 64) (<= C 64))
  (tensor X f32 (R C) in) (tensor I i32 (R) out)
  (ensures (I r) (argmax-over c 0 C (X r c)))))";

std::string argmaxKernel(const char *cmp) {
  return std::string(R"(
__global__ void amax(const float *X, int *I, int R, int C) {
  int r = threadIdx.x;
  if (r < R) {
    int best = 0;
    float bv = X[r * C];
    for (int c = 1; c < C; ++c) {
      float v = X[r * C + c];
      if (v )") + cmp + R"( bv) { bv = v; best = c; }
    }
    I[r] = best;
  }
})";
}

} // namespace

TEST_CASE("bounded: a scan through shared memory agrees at every N up to the bound; the exclusive twin is refuted") {
  Case ok = setUp(kScanSpec, scanKernel("buf[0][t] = t < N ? X[t] : 0.0f;"), "8", "1", 8);
  equiv::BoundedReport r = check(ok);
  INFO(r.stopped);
  CHECK(r.result == Result::Agrees);
  CHECK(r.reached == 8);
  CHECK(r.tuples == 8);
  CHECK(r.stopped.empty());
  CHECK(r.solverQueries == 0); // the canonical forms settle every element

  Case bad = setUp(kScanSpec, scanKernel("buf[0][t] = t > 0 && t <= N ? X[t - 1] : 0.0f;"), "8", "1", 8);
  equiv::BoundedReport rb = check(bad);
  REQUIRE(rb.result == Result::Refuted);
  CHECK(rb.refutation.outcome == equiv::Outcome::Equivalence);
  CHECK(rb.refutation.witness["sizes"]["N"] == 1); // the smallest size, first
  CHECK(rb.refutation.witness.contains("inputs"));
}

TEST_CASE("bounded: a running max from -FLT_MAX equals max-over for finite-float inputs, and says so") {
  const char *kernel = R"(
__global__ void rowmax(const float *X, float *M, int R, int C) {
  int r = threadIdx.x;
  if (r < R) {
    float m = -3.402823466e+38f;
    for (int c = 0; c < C; ++c) m = fmaxf(m, X[r * C + c]);
    M[r] = m;
  }
})";
  Case ok = setUp(kRowMaxSpec, kernel, "64", "1", 4);
  equiv::BoundedReport r = check(ok);
  INFO(r.stopped);
  CHECK(r.result == Result::Agrees);
  CHECK(r.reached == 4);
  bool stated = false;
  for (const std::string &a : r.assumptions)
    stated |= a.find("finite values of their type") != std::string::npos;
  CHECK(stated);

  // Starting from 0 is wrong for rows of negative values.
  Case bad = setUp(kRowMaxSpec, R"(
__global__ void rowmax(const float *X, float *M, int R, int C) {
  int r = threadIdx.x;
  if (r < R) {
    float m = 0.0f;
    for (int c = 0; c < C; ++c) m = fmaxf(m, X[r * C + c]);
    M[r] = m;
  }
})", "64", "1", 4);
  equiv::BoundedReport rb = check(bad);
  CHECK(rb.result == Result::Refuted);
}

TEST_CASE("bounded: an argmax whose if only assigns is merged into ites; the last-on-ties twin is refuted") {
  Case ok = setUp(kArgmaxSpec, argmaxKernel(">"), "64", "1", 4);
  equiv::BoundedReport r = check(ok);
  INFO(r.stopped);
  CHECK(r.result == Result::Agrees);
  CHECK(r.reached == 4);

  Case bad = setUp(kArgmaxSpec, argmaxKernel(">="), "64", "1", 4);
  equiv::BoundedReport rb = check(bad);
  REQUIRE(rb.result == Result::Refuted);
  CHECK(rb.refutation.witness["sizes"]["C"] == 2); // a tie needs two columns
}

TEST_CASE("bounded: control that depends on an input value stops the check, with the line") {
  const char *spec = R"((spec cp (dims N) (assume (<= N 64))
    (tensor X f32 (N) in) (tensor Y f32 (N) out) (ensures (Y i) (X i))))";
  Case c = setUp(spec, R"(
__global__ void cp(const float *X, float *Y, int N) {
  int i = threadIdx.x;
  if (i < N) {
    float v = X[i];
    if (v > 0.0f) Y[i] = v; else Y[i] = v;
  }
})", "64", "1", 4);
  equiv::BoundedReport r = check(c);
  CHECK(r.result == Result::Stopped);
  CHECK(r.reached == 0);
  CHECK(r.stopped.find("one run cannot stand for every input") != std::string::npos);
  CHECK(r.stopped.find("a branch depends on a value loaded from memory") != std::string::npos);
  CHECK(r.stopped.find("line 6") != std::string::npos);
}

TEST_CASE("bounded: polynomial identities and float literals by the spec's constants") {
  const char *spec = R"((spec sq (dims N) (assume (<= N 64))
    (tensor A f32 (N) in) (tensor B f32 (N) in) (tensor Y f32 (N) out)
    (ensures (Y i) (* 0.1 (- (* (A i) (A i)) (* (B i) (B i)))))))";
  Case ok = setUp(spec, R"(
__global__ void sq(const float *A, const float *B, float *Y, int N) {
  int i = threadIdx.x;
  if (i < N) Y[i] = 0.1f * ((A[i] + B[i]) * (A[i] - B[i]));
})", "64", "1", 3);
  equiv::BoundedReport r = check(ok);
  INFO(r.stopped);
  CHECK(r.result == Result::Agrees);
  CHECK(r.solverQueries == 0);
  bool literal = false;
  for (const std::string &a : r.assumptions)
    literal |= a.find("float literal") != std::string::npos;
  CHECK(literal);

  Case bad = setUp(spec, R"(
__global__ void sq(const float *A, const float *B, float *Y, int N) {
  int i = threadIdx.x;
  if (i < N) Y[i] = 0.1f * ((A[i] + B[i]) * (A[i] + B[i]));
})", "64", "1", 3);
  CHECK(check(bad).result == Result::Refuted);
}

TEST_CASE("bounded: an output read before it is written is refuted, not agreed") {
  const char *spec = R"((spec acc (dims N) (assume (<= N 64))
    (tensor X f32 (N) in) (tensor Y f32 (N) out) (ensures (Y i) (X i))))";
  Case c = setUp(spec, R"(
__global__ void acc(const float *X, float *Y, int N) {
  int i = threadIdx.x;
  if (i < N) Y[i] = Y[i] + X[i];
})", "64", "1", 3);
  equiv::BoundedReport r = check(c);
  REQUIRE(r.result == Result::Refuted);
  CHECK(r.refutation.headline.find("stale") != std::string::npos);
}

TEST_CASE("bounded: atomicAdd sums agree in any order; a used atomic result stops the check") {
  const char *spec = R"((spec tot (dims N) (assume (<= N 64))
    (tensor X f32 (N) in) (tensor S f32 (1) inout)
    (ensures (S z) (+ (old S z) (sum i 0 N (X i))))))";
  Case ok = setUp(spec, R"(
__global__ void tot(const float *X, float *S, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(S, X[i]);
})", "4", "(N + 3) / 4", 6);
  equiv::BoundedReport r = check(ok);
  INFO(r.stopped);
  CHECK(r.result == Result::Agrees);
  CHECK(r.reached == 6);

  // Compaction through a counter: the slot depends on which thread comes first. The
  // interpreter's one order gives slot == threadIdx.x, which a GPU does not promise.
  const char *cspec = R"((spec cpy (dims N) (assume (<= N 64))
    (tensor X f32 (N) in) (tensor Y f32 (N) out) (ensures (Y i) (X i))))";
  Case c = setUp(cspec, R"(
__global__ void cpy(const float *X, float *Y, int N) {
  __shared__ int cnt;
  if (threadIdx.x == 0) cnt = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) { int slot = atomicAdd(&cnt, 1); Y[blockIdx.x * blockDim.x + slot] = X[i]; }
})", "4", "(N + 3) / 4", 3);
  equiv::BoundedReport rc = check(c);
  CHECK(rc.result == Result::Stopped);
  CHECK(rc.stopped.find("atomic returned") != std::string::npos);
}

// Found by a review: each of these kernels is wrong at a size within the bound and was once
// reported bounded.
TEST_CASE("bounded: what the review found is not agreed (garbage, narrowing, order, f64, inf, division)") {
  const char *ident = R"((spec cp (dims N) (assume (<= N 64))
    (tensor x f32 (N) in) (tensor y f32 (N) out) (ensures (y i) (x i))))";
  // The kernel is wrong at N = wrongAt: the check must not reach it.
  auto notAgreed = [&](const char *specText, const std::string &kernel, const char *expect, int wrongAt = 1) {
    Case c = setUp(specText, kernel, "N", "1", 3);
    equiv::BoundedReport r = check(c);
    INFO(kernel);
    INFO(r.stopped);
    CHECK(r.reached < wrongAt);
    CHECK(r.result != Result::Refuted); // no replay shows these differences (garbage, NaN, order)
    CHECK(r.stopped.find(expect) != std::string::npos);
  };
  // An uninitialised variable is some value, not 0.
  notAgreed(ident, R"(
__global__ void cp(const float *x, float *y, int N) {
  int i = threadIdx.x;
  float acc;
  acc += x[i];
  y[i] = acc;
})", "y[0]");
  // An Int scalar steers the run but is not enumerated.
  notAgreed(R"((spec cp (dims N) (scalar k i32) (assume (<= N 64))
    (tensor x f32 (N) in) (tensor y f32 (N) out) (ensures (y i) (x i))))", R"(
__global__ void cp(const float *x, float *y, int N, int k) {
  int i = threadIdx.x;
  float v = x[i];
  if (k > 1000) v = 0.0f;
  y[i] = v;
})", "Int scalar 'k'");
  // The last atomicExch wins, in an order no GPU promises.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor x f32 (N) in) (tensor y f32 (1) out) (ensures (y i) (x (- N 1)))))", R"(
__global__ void cp(const float *x, float *y, int N) {
  atomicExch(&y[0], x[threadIdx.x]);
})", "atomic exch");
  // (unsigned char) of an i32 input wraps.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor a i32 (N) in) (tensor y i32 (N) out) (ensures (y i) (a i))))", R"(
__global__ void cp(const int *a, int *y, int N) {
  int i = threadIdx.x;
  y[i] = (unsigned char)a[i];
})", "narrowing");
  // Each thread's uninitialised local array is its own garbage.
  notAgreed(ident, R"(
__global__ void cp(const float *x, float *y, int N) {
  __shared__ float s[64];
  float t[1];
  int i = threadIdx.x;
  s[i] = t[0];
  __syncthreads();
  y[i] = x[i] + (s[(i + 1) % N] - t[0]);
})", "memory the launch did not write", 2);
  // An f64 input can be below -FLT_MAX.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor x f64 (N) in) (tensor y f64 (N) out) (ensures (y i) (x i))))", R"(
__global__ void cp(const double *x, double *y, int N) {
  int i = threadIdx.x;
  y[i] = fmax(x[i], -3.4028234663852886e38);
})", "y[0]");
  // inf - inf is NaN on a GPU.
  notAgreed(ident, R"(
__global__ void cp(const float *x, float *y, int N) {
  int i = threadIdx.x;
  float v = x[i];
  float t = v > 3.3f ? 1e39f : 0.0f;
  y[i] = (v + t) - t;
})", "one run cannot stand for every input");
  // q - q is NaN where the divisor is 0.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor x f32 (N) in) (tensor z f32 (N) in) (tensor y f32 (N) out) (ensures (y i) (x i))))", R"(
__global__ void cp(const float *x, const float *z, float *y, int N) {
  int i = threadIdx.x;
  float q = 1.0f / (x[i] - z[i]);
  y[i] = x[i] + (q - q);
})", "which the spec does not");
  // A second review: sqrt of a negative is NaN, and cancels only over the reals.
  notAgreed(ident, R"(
__global__ void cp(const float *x, float *y, int N) {
  int i = threadIdx.x;
  float r = sqrtf(9.0f - x[i] * x[i]);
  y[i] = (x[i] + r) - r;
})", "which the spec does not");
  // Unsigned arithmetic on a loaded value wraps.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor a u32 (N) in) (tensor y f32 (N) out) (ensures (y i) (+ (a i) 4294967287))))", R"(
__global__ void cp(const unsigned *a, float *y, int N) {
  int i = threadIdx.x;
  unsigned v = a[i];
  y[i] = (float)(v + 4294967287u);
})", "may wrap around");
  // An integer atomicAdd wraps too.
  notAgreed(R"((spec cp (dims N) (assume (<= N 64))
    (tensor a i32 (N) in) (tensor s i32 (1) inout) (ensures (s z) (+ (old s z) (sum i 0 N (a i))))))", R"(
__global__ void cp(const int *a, int *s, int N) {
  atomicAdd(s, a[threadIdx.x]);
})", "integer atomic");
}
