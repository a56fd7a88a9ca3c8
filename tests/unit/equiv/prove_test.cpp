// The symbolic coverage/equivalence prover (equiv/prove.h) on small kernels: what it must
// prove, and near misses it must not. (The prover assumes the caller proved safety; every
// kernel here is race-free.)
#include "verify/equiv/prove.h"
#include "verify/frontend/frontend.h"
#include "verify/ir/cexpr.h"
#include "verify/spec/parser.h"

#include "tiled_stencil.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

using namespace ksynth;
using check::Status;

namespace {

struct Case {
  spec::Spec s;
  ir::Kernel k;
  spec::Binding b;
  check::Options o;
};

Case make(const std::string &specText, const std::string &code, std::vector<std::string> block,
          std::vector<std::string> grid) {
  Case c;
  spec::ParseResult p = spec::parse(specText);
  REQUIRE(p.errors.empty());
  c.s = *p.spec;
  frontend::ParseResult r = frontend::parseSource(code, "t.cu", {});
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  c.k = r.kernels[0];
  c.b = spec::bind(c.s, c.k);
  REQUIRE(c.b.ok());
  for (size_t d = 0; d < 3; ++d) {
    std::string err;
    c.o.block[d] = ir::parseCExpr(c.k, d < block.size() ? block[d] : "1", err);
    c.o.grid[d] = ir::parseCExpr(c.k, d < grid.size() ? grid[d] : "1", err);
    REQUIRE(c.o.block[d]);
    REQUIRE(c.o.grid[d]);
  }
  for (const spec::Precondition &pre : c.b.preconditions)
    c.o.assumes.push_back(pre.expr);
  return c;
}

equiv::TensorProof prove(const Case &c, const std::string &tensor) {
  equiv::ProofReport r = equiv::proveAgainstSpec(c.k, c.s, c.b, c.o);
  INFO(r.unavailable);
  REQUIRE(r.unavailable.empty());
  REQUIRE(r.tensors.count(tensor));
  return r.tensors.at(tensor);
}

const char *kScale = R"((spec scale (dims N) (assume (<= N 1000000))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y i) (* 2.0 (X i)))))";

const char *kRowSum = R"((spec row_sum (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R) out)
  (ensures (Y r) (sum c 0 C (X r c)))))";

} // namespace

TEST_CASE("prove: an elementwise map is covered and equivalent") {
  Case c = make(kScale, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = X[i] + X[i];
})", {"128"}, {"(N + 127) / 128"});
  equiv::TensorProof t = prove(c, "Y");
  CHECK(t.coverage == Status::Proven);
  CHECK(t.equivalence == Status::Proven);
}

TEST_CASE("prove: a missed last element is not covered, yet every stored value is right") {
  Case c = make(kScale, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < N) Y[i] = 2.0f * X[i];
})", {"128"}, {"(N + 127) / 128"});
  equiv::TensorProof t = prove(c, "Y");
  CHECK(t.coverage == Status::Unknown);
  CHECK(t.equivalence == Status::Proven);
}

TEST_CASE("prove: two threads storing one element are not unique (and equivalence is not claimed)") {
  Case c = make(kScale, R"(
__global__ void scale(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i / 2 * 2] = 2.0f * X[i / 2 * 2];
})", {"128"}, {"(N + 127) / 128"});
  equiv::TensorProof t = prove(c, "Y");
  CHECK(t.coverage == Status::Unknown);
  CHECK(t.equivalence == Status::Unknown);
  CHECK(t.coverageReason.find("no two threads") != std::string::npos);
}

TEST_CASE("prove: a per-thread reduction matches the spec's sum; one term short does not") {
  const char *good = R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c) acc += X[r * C + c];
    Y[r] = acc;
  }
})";
  Case c = make(kRowSum, good, {"64"}, {"(R + 63) / 64"});
  equiv::TensorProof t = prove(c, "Y");
  CHECK(t.coverage == Status::Proven);
  CHECK(t.equivalence == Status::Proven);
  std::string bad = good;
  bad.replace(bad.find("int c = 0"), 9, "int c = 1");
  Case c2 = make(kRowSum, bad, {"64"}, {"(R + 63) / 64"});
  equiv::TensorProof t2 = prove(c2, "Y");
  CHECK(t2.coverage == Status::Proven);
  CHECK(t2.equivalence == Status::Unknown);
}

TEST_CASE("prove: a tiled reduction is matched through the tile map; a tile that skips is not") {
  const char *good = R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c0 = 0; c0 < C; c0 += 8)
      for (int k = 0; k < 8; ++k)
        acc += c0 + k < C ? X[r * C + c0 + k] : 0.0f;
    Y[r] = acc;
  }
})";
  Case c = make(kRowSum, good, {"64"}, {"(R + 63) / 64"});
  CHECK(prove(c, "Y").equivalence == Status::Proven);
  std::string bad = good;
  bad.replace(bad.find("c0 += 8"), 7, "c0 += 9");
  Case c2 = make(kRowSum, bad, {"64"}, {"(R + 63) / 64"});
  CHECK(prove(c2, "Y").equivalence == Status::Unknown);
}

TEST_CASE("prove: a chunk of terms per iteration is one more level; a repeated or skipped element is not") {
  // Four elements per iteration where C % 4 == 0 (as a float4 would read them), one otherwise:
  // each case of the size condition on its own, the four terms as a level of four.
  const char *good = R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    if (C % 4 == 0) {
      for (int c = 0; c < C / 4; ++c)
        acc += X[r * C + 4 * c + 2] + X[r * C + 4 * c] + X[r * C + 4 * c + 3] + X[r * C + 4 * c + 1];
    } else {
      for (int c = 0; c < C; ++c) acc += X[r * C + c];
    }
    Y[r] = acc;
  }
})";
  Case c = make(kRowSum, good, {"64"}, {"(R + 63) / 64"});
  CHECK(prove(c, "Y").equivalence == Status::Proven);
  auto twin = [&](const std::string &from, const std::string &to) {
    std::string bad = good;
    REQUIRE(bad.find(from) != std::string::npos);
    bad.replace(bad.find(from), from.size(), to);
    Case cb = make(kRowSum, bad, {"64"}, {"(R + 63) / 64"});
    return prove(cb, "Y").equivalence;
  };
  CHECK(twin("4 * c + 3]", "4 * c + 2]") == Status::Unknown);                    // x, y, z, z
  CHECK(twin("c < C / 4;", "c < C / 8;") == Status::Unknown);                    // half the chunks
  CHECK(twin("X[r * C + 4 * c]", "X[r * C + 4 * c + 4]") == Status::Unknown);     // 1, 2, 3, 4
  CHECK(twin("for (int c = 0; c < C; ++c)", "for (int c = 1; c < C; ++c)") == Status::Unknown); // other case
}

TEST_CASE("prove: a value staged in shared memory comes from its writer; a later overwrite is seen") {
  const char *good = R"(
__global__ void scale(const float *X, float *Y, int N) {
  __shared__ float s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  int m = blockIdx.x * 64 + 63 - t; // the element whose value thread 63 - t needs
  s[t] = m < N ? 2.0f * X[m] : 0.0f;
  __syncthreads();
  if (i < N) Y[i] = s[63 - t];
})";
  Case c = make(kScale, good, {"64"}, {"(N + 63) / 64"});
  equiv::TensorProof t = prove(c, "Y");
  CHECK(t.coverage == Status::Proven);
  CHECK(t.equivalence == Status::Proven);
  std::string bad = good;
  bad.replace(bad.find("  if (i < N) Y[i]"), 0, "  s[t] = 1.0f;\n  __syncthreads();\n");
  Case c2 = make(kScale, bad, {"64"}, {"(N + 63) / 64"});
  CHECK(prove(c2, "Y").equivalence == Status::Unknown);
}

TEST_CASE("prove: an in-place update reads the old value; after its own store it does not") {
  const char *spec = R"((spec inc (dims N) (assume (<= N 100000))
    (tensor X f32 (N) in) (tensor Y f32 (N) inout)
    (ensures (Y i) (+ (old Y i) (X i)))))";
  Case c = make(spec, R"(
__global__ void inc(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = Y[i] + X[i];
})", {"32"}, {"(N + 31) / 32"});
  CHECK(prove(c, "Y").equivalence == Status::Proven);
  Case c2 = make(spec, R"(
__global__ void inc(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) { float v = X[i]; Y[i] = 0.0f; Y[i] = Y[i] + v; }
})", {"32"}, {"(N + 31) / 32"});
  CHECK(prove(c2, "Y").equivalence == Status::Unknown);
}

TEST_CASE("prove: an increment that uses another loop-carried float is unknown (and does not crash)") {
  Case c = make(kRowSum, R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f, prev = 0.0f;
    for (int c = 0; c < C; ++c) { acc += prev; prev = X[r * C + c]; }
    acc += prev;
    Y[r] = acc;
  }
})", {"64"}, {"(R + 63) / 64"});
  CHECK(prove(c, "Y").equivalence == Status::Unknown);
}

TEST_CASE("prove: coverage after a loop that may not end states that loops terminate") {
  Case c = make(kRowSum, R"(
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c) acc += X[r * C + c];
    for (;;) { if (C != 7) break; }
    Y[r] = acc;
  }
})", {"64"}, {"(R + 63) / 64"});
  equiv::ProofReport r = equiv::proveAgainstSpec(c.k, c.s, c.b, c.o);
  REQUIRE(r.tensors.count("Y"));
  CHECK(r.tensors.at("Y").coverage == Status::Proven);
  bool stated = false;
  for (const std::string &a : r.assumptions)
    stated |= a.find("terminate") != std::string::npos;
  CHECK(stated);
}

// ---- block tree reductions and atomics -----------------------------------------------------

namespace {
const char *kBlockTotal = R"((spec total (dims N) (assume (<= N 65536))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y b) (sum k 0 64 (X b)))))";

// Each block of 64 threads sums 64 copies of X[b] through a tree of `rounds` starting at `start`.
std::string treeKernel(const std::string &loop, const std::string &cond) {
  return R"(
__global__ void total(const float *X, float *Y, int N) {
  __shared__ float r[64];
  unsigned t = threadIdx.x;
  r[t] = X[blockIdx.x];
  __syncthreads();
  )" + loop + R"( {
    if ()" + cond + R"()
      r[t] += r[t + s];
    __syncthreads();
  }
  if (t == 0)
    Y[blockIdx.x] = r[0];
})";
}
} // namespace

TEST_CASE("prove: halving and interleaved trees sum their 64 cells; a tree one round short does not") {
  SUBCASE("halving") {
    Case c = make(kBlockTotal, treeKernel("for (unsigned s = 32; s > 0; s >>= 1)", "t < s"), {"64"}, {"N"});
    CHECK(prove(c, "Y").equivalence == Status::Proven);
  }
  SUBCASE("interleaved") {
    Case c = make(kBlockTotal, treeKernel("for (unsigned s = 1; s < 64; s *= 2)", "t % (2 * s) == 0"), {"64"}, {"N"});
    CHECK(prove(c, "Y").equivalence == Status::Proven);
  }
  SUBCASE("halving from 16: 32 cells") {
    Case c = make(kBlockTotal, treeKernel("for (unsigned s = 16; s > 0; s >>= 1)", "t < s"), {"64"}, {"N"});
    CHECK(prove(c, "Y").equivalence != Status::Proven);
  }
  SUBCASE("interleaved stopping at 16: cells 0 and 32 never meet") {
    Case c = make(kBlockTotal, treeKernel("for (unsigned s = 1; s < 32; s *= 2)", "t % (2 * s) == 0"), {"64"}, {"N"});
    CHECK(prove(c, "Y").equivalence != Status::Proven);
  }
}

TEST_CASE("prove: atomicAdd into an inout total is its old value plus every thread's operand") {
  const char *spec = R"((spec acc (dims N) (assume (<= N 65536))
    (tensor X f32 (N) in) (tensor S f32 () inout)
    (ensures (S) (+ (old S) (sum i 0 N (X i))))))";
  const char *body = R"(
__global__ void acc(const float *X, float *S, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    atomicAdd(S, X[i]);
})";
  SUBCASE("every element once") {
    Case c = make(spec, body, {"128"}, {"(N + 127) / 128"});
    equiv::TensorProof p = prove(c, "S");
    CHECK(p.coverage == Status::Proven);
    CHECK(p.equivalence == Status::Proven);
  }
  SUBCASE("a grid one block short misses the tail") {
    Case c = make(spec, body, {"128"}, {"N / 128"});
    CHECK(prove(c, "S").equivalence != Status::Proven);
  }
  SUBCASE("the returned old value used") {
    Case c = make(spec, R"(
__global__ void acc(const float *X, float *S, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float o = atomicAdd(S, X[i]);
    if (o > 1e30f)
      atomicAdd(S, 0.0f);
  }
})", {"128"}, {"(N + 127) / 128"});
    CHECK(prove(c, "S").equivalence != Status::Proven);
  }
}

namespace {

const char *kRowMin = R"((spec row_min (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R) out)
  (ensures (Y r) (min-over c 0 C (X r c)))))";

const char *kArgminRows = R"((spec argmin_rows (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor I i32 (R) out)
  (ensures (I r) (argmin-over c 0 C (X r c)))))";

// One thread per row: a running min from the first column (`op` compares v with the best).
std::string rowMinKernel(const std::string &update) {
  return R"(
__global__ void row_min(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float m = X[r * C];
    for (int c = 1; c < C; ++c)
      )" + update + R"(;
    Y[r] = m;
  }
})";
}

std::string argminKernel(const std::string &cmp) {
  return R"(
__global__ void argmin_rows(const float *X, int *I, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    int best = 0;
    float bv = X[r * C];
    for (int c = 1; c < C; ++c) {
      float v = X[r * C + c];
      if (v )" + cmp + R"( bv) {
        bv = v;
        best = c;
      }
    }
    I[r] = best;
  }
})";
}

} // namespace

TEST_CASE("prove: a running min over a symbolic row is the spec's min-over; max or a skipped column is not") {
  for (const char *update : {"m = fminf(m, X[r * C + c])", "if (X[r * C + c] < m) m = X[r * C + c]"}) {
    CAPTURE(update);
    Case c = make(kRowMin, rowMinKernel(update), {"128"}, {"(R + 127) / 128"});
    CHECK(prove(c, "Y").equivalence == Status::Proven);
  }
  for (const char *wrong : {"m = fmaxf(m, X[r * C + c])", "m = fminf(m, X[r * C + c - 1])",
                            "m = fminf(m, X[r * C + (c == C - 1 ? 0 : c)])"}) {
    CAPTURE(wrong);
    Case c = make(kRowMin, rowMinKernel(wrong), {"128"}, {"(R + 127) / 128"});
    CHECK(prove(c, "Y").equivalence != Status::Proven);
  }
}

TEST_CASE("prove: a running argmin with a strict test is the spec's argmin-over (first of equals); <= is not") {
  Case ok = make(kArgminRows, argminKernel("<"), {"128"}, {"(R + 127) / 128"});
  CHECK(prove(ok, "I").equivalence == Status::Proven);
  Case last = make(kArgminRows, argminKernel("<="), {"128"}, {"(R + 127) / 128"});
  CHECK(prove(last, "I").equivalence != Status::Proven);
  Case wrongWay = make(kArgminRows, argminKernel(">"), {"128"}, {"(R + 127) / 128"});
  CHECK(prove(wrongWay, "I").equivalence != Status::Proven);
}

namespace {

const char *kArgmaxRows = R"((spec argmax_rows (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor I i32 (R) out)
  (ensures (I r) (argmax-over c 0 C (X r c)))))";

// One warp per row: a running arg-best per lane over a strided slice, then a shuffle
// butterfly (or tree) of (value, column) pairs; lane 0 writes. Each part can be replaced.
struct WarpArg {
  std::string start = "-3.402823466e+38f", startIndex = "lane", slice = "v > bv", stride = "32";
  std::string pick = "ov > bv || (ov == bv && oi < bi)", shuffle = "__shfl_xor_sync", last = "0";
};

std::string warpArgKernel(const WarpArg &a) {
  return R"(
__global__ void warp_arg(const float *X, int *I, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float bv = )" + a.start + R"(;
  int bi = )" + a.startIndex + R"(;
  for (int c = lane; c < C; c += )" + a.stride + R"() {
    float v = X[r * C + c];
    if ()" + a.slice + R"() {
      bv = v;
      bi = c;
    }
  }
  for (int off = 16; off > )" + a.last + R"(; off >>= 1) {
    float ov = )" + a.shuffle + R"((0xffffffffu, bv, off);
    int oi = )" + a.shuffle + R"((0xffffffffu, bi, off);
    if ()" + a.pick + R"() {
      bv = ov;
      bi = oi;
    }
  }
  if (lane == 0)
    I[r] = bi;
})";
}

} // namespace

TEST_CASE("prove: a shuffle butterfly of (value, index) pairs is the spec's argmax; near misses are not") {
  SUBCASE("proven") {
    WarpArg xorFly, down, fromZero, argmin;
    down.shuffle = "__shfl_down_sync";
    fromZero.startIndex = "0";
    argmin.start = "3.402823466e+38f";
    argmin.slice = "v < bv";
    argmin.pick = "ov < bv || (ov == bv && oi < bi)";
    for (const WarpArg *a : {&xorFly, &down, &fromZero}) {
      Case c = make(kArgmaxRows, warpArgKernel(*a), {"32"}, {"R"});
      CHECK(prove(c, "I").equivalence == Status::Proven);
    }
    Case c = make(kArgminRows, warpArgKernel(argmin), {"32"}, {"R"});
    CHECK(prove(c, "I").equivalence == Status::Proven);
  }
  SUBCASE("not proven") {
    std::vector<WarpArg> wrong(8);
    wrong[0].startIndex = "C";  // an all -FLT_MAX row gives C
    wrong[1].startIndex = "-1"; // ... or -1
    wrong[2].pick = "ov > bv";  // lane 0's column 32 kept over lane 1's equal column 1
    wrong[3].pick = "ov > bv || (ov == bv && oi > bi)";
    wrong[4].pick = "ov >= bv";
    wrong[5].last = "1";     // the butterfly one round short
    wrong[6].slice = "v >= bv"; // the last of equal values in a slice
    wrong[7].stride = "64";  // half the columns never read
    for (size_t i = 0; i < wrong.size(); ++i) {
      CAPTURE(i);
      Case c = make(kArgmaxRows, warpArgKernel(wrong[i]), {"32"}, {"R"});
      CHECK(prove(c, "I").equivalence != Status::Proven);
    }
    WarpArg maxForMin; // an argmax kernel against the argmin spec
    Case c = make(kArgminRows, warpArgKernel(maxForMin), {"32"}, {"R"});
    CHECK(prove(c, "I").equivalence != Status::Proven);
  }
}

namespace {

// One warp per row, a shuffle tree or butterfly of sums; lane `reader` writes the row's sum.
std::string warpRowSum(const std::string &shuffle, int reader) {
  return R"(
__global__ void warp_row(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += )" + shuffle + R"((0xffffffffu, acc, off);
  if (lane == )" + std::to_string(reader) + R"()
    Y[r] = acc;
})";
}

} // namespace

TEST_CASE("prove: a warp's sum read from the lane that holds it, not only lane 0 (the writer guessed from the "
          "path's lane == k)") {
  // A butterfly leaves the sum in every lane; an up-tree in lane 31 only.
  for (auto [shuffle, reader] : {std::pair{"__shfl_xor_sync", 5}, {"__shfl_up_sync", 31}}) {
    CAPTURE(reader);
    equiv::TensorProof p = prove(make(kRowSum, warpRowSum(shuffle, reader), {"32"}, {"R"}), "Y");
    CHECK(p.coverage == Status::Proven);
    CHECK(p.equivalence == Status::Proven);
  }
  // A down-tree's lane 5 and an up-tree's lane 30 hold partial sums.
  for (auto [shuffle, reader] : {std::pair{"__shfl_down_sync", 5}, {"__shfl_up_sync", 30}}) {
    CAPTURE(reader);
    CHECK(prove(make(kRowSum, warpRowSum(shuffle, reader), {"32"}, {"R"}), "Y").equivalence != Status::Proven);
  }
}

namespace {

// A block of 256 per row: each warp's butterfly of (value, column) pairs, lane 0 of each warp
// leaves its pair in shared memory, warp 0 combines the 8 pairs by a second butterfly. Each
// part can be replaced.
struct BlockArg {
  std::string shuffle = "__shfl_xor_sync", valueStore = "lane == 0", indexStore = "lane == 0";
  std::string readIndex = "pi[lane]", padIndex = "lane";
};

std::string blockArgKernel(const BlockArg &a) {
  std::string fly = R"(
    for (int off = 16; off > 0; off >>= 1) {
      float ov = )" + a.shuffle + R"((0xffffffffu, bv, off);
      int oi = )" + a.shuffle + R"((0xffffffffu, bi, off);
      if (ov > bv || (ov == bv && oi < bi)) {
        bv = ov;
        bi = oi;
      }
    })";
  return R"(
__global__ void block_arg(const float *X, int *I, int R, int C) {
  __shared__ float pv[8];
  __shared__ int pi[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float bv = -3.402823466e+38f;
  int bi = threadIdx.x;
  for (int c = threadIdx.x; c < C; c += 256) {
    float v = X[r * C + c];
    if (v > bv) {
      bv = v;
      bi = c;
    }
  })" + fly + R"(
  if ()" + a.valueStore + R"()
    pv[warp] = bv;
  if ()" + a.indexStore + R"()
    pi[warp] = bi;
  __syncthreads();
  if (warp == 0) {
    bv = lane < 8 ? pv[lane] : -3.402823466e+38f;
    bi = lane < 8 ? )" + a.readIndex + " : " + a.padIndex + ";" + fly + R"(
    if (lane == 0)
      I[r] = bi;
  }
})";
}

} // namespace

TEST_CASE("prove: a block argmax, warp pairs through shared memory, is the spec's argmax; near misses are not") {
  BlockArg ok, down;
  down.shuffle = "__shfl_down_sync"; // lane 0 alone ends with the pair, and stores both
  for (const BlockArg *a : {&ok, &down})
    CHECK(prove(make(kArgmaxRows, blockArgKernel(*a), {"256"}, {"R"}), "I").equivalence == Status::Proven);
  std::vector<BlockArg> wrong(3);
  wrong[0].readIndex = "pi[(lane + 1) % 8]"; // warp w's value beside warp w + 1's column
  wrong[1].padIndex = "-1";                  // an all -FLT_MAX row gives -1
  wrong[2].shuffle = "__shfl_down_sync";     // only lane 0 ends with the warp's pair ...
  wrong[2].indexStore = "lane == 1";         // ... but lane 1 stores the column
  for (size_t i = 0; i < wrong.size(); ++i) {
    CAPTURE(i);
    CHECK(prove(make(kArgmaxRows, blockArgKernel(wrong[i]), {"256"}, {"R"}), "I").equivalence != Status::Proven);
  }
}

namespace {

const char *kScaleBySum = R"((spec scale_by_sum (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out)
  (ensures (Y r c) (* (X r c) (sum k 0 C (X r k))))))";

// Eight rows per block of 256, a warp per row: every lane of a warp stores its slice of the
// row, scaled by the row's sum from an xor butterfly.
std::string rowsPerBlockKernel(const std::string &lane) {
  return R"(
__global__ void scale_by_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = )" + lane + R"(;
  if (r >= R)
    return;
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * s;
})";
}

} // namespace

TEST_CASE("prove: a warp per row, eight rows per block, every lane storing: covered and equivalent") {
  Case ok = make(kScaleBySum, rowsPerBlockKernel("threadIdx.x % 32"), {"256"}, {"(R + 7) / 8"});
  equiv::TensorProof p = prove(ok, "Y");
  CHECK(p.coverage == Status::Proven);
  CHECK(p.equivalence == Status::Proven);
  // The lane taken as the thread's index in the block: warps past the first skip columns.
  Case wrong = make(kScaleBySum, rowsPerBlockKernel("threadIdx.x"), {"256"}, {"(R + 7) / 8"});
  equiv::TensorProof q = prove(wrong, "Y");
  CHECK(q.coverage != Status::Proven);
}

namespace {

const char *kRowMaxSpec = R"((spec row_max (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R) out)
  (ensures (Y r) (max-over c 0 C (X r c)))))";

// A warp per row reading float4s where C % 4 == 0: each iteration's candidates are a
// float4's elements (index maps 4 lane + 128 i + e, e = 0..3).
std::string rowMaxF4Kernel(const std::string &chunk) {
  return R"(
__global__ void row_max_f4(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float m = -3.402823466e+38f;
  if (C % 4 == 0) {
    const float4 *x4 = reinterpret_cast<const float4 *>(X + r * C);
    for (int c = lane; c < C / 4; c += 32) {
      float4 v = x4[c];
      m = fmaxf(m, )" + chunk + R"();
    }
  } else {
    for (int c = lane; c < C; c += 32)
      m = fmaxf(m, X[r * C + c]);
  }
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0)
    Y[r] = m;
})";
}

} // namespace

TEST_CASE("prove: a max over float4 chunks covers the row by residues; a chunk missing an element does not") {
  Case ok = make(kRowMaxSpec, rowMaxF4Kernel("fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w))"), {"32"}, {"R"});
  CHECK(prove(ok, "Y").equivalence == Status::Proven);
  for (const char *wrong : {"fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.z))", "fmaxf(v.x, v.y)"}) {
    CAPTURE(wrong);
    Case c = make(kRowMaxSpec, rowMaxF4Kernel(wrong), {"32"}, {"R"});
    CHECK(prove(c, "Y").equivalence != Status::Proven);
  }
}

namespace {

const char *kSoftmax = R"((spec softmax (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out)
  (define (rowmax r) (max-over c 0 C (X r c)))
  (define (denom r) (sum c 0 C (exp (- (X r c) (rowmax r)))))
  (ensures (Y r c) (/ (exp (- (X r c) (rowmax r))) (denom r)))))";

// Online softmax: a running max m and the sum d of exp(x - m) rescaled as m grows, over a
// strided slice per lane (stride 1 and one thread per row where merge is empty), then a
// butterfly merge of the lanes' (m, d) pairs. Each part can be replaced.
struct Online {
  std::string start = "0.0f", update = "d * __expf(m - mn) + __expf(v - mn)", keep = "m = mn;";
  std::string merge = "d * __expf(m - mn) + dO * __expf(mo - mn)", last = "0";
  std::string out = "__expf(X[r * C + c] - m) / d";
};

std::string onlineThreadKernel(const Online &o) {
  return R"(
__global__ void online_thread(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R)
    return;
  float m = -3.402823466e+38f, d = )" + o.start + R"(;
  for (int c = 0; c < C; ++c) {
    float v = X[r * C + c];
    float mn = fmaxf(m, v);
    d = )" + o.update + R"(;
    )" + o.keep + R"(
  }
  for (int c = 0; c < C; ++c)
    Y[r * C + c] = __expf(X[r * C + c] - m) / d;
})";
}

std::string onlineWarpKernel(const Online &o) {
  return R"(
__global__ void online_warp(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float m = -3.402823466e+38f, d = )" + o.start + R"(;
  for (int c = lane; c < C; c += 32) {
    float v = X[r * C + c];
    float mn = fmaxf(m, v);
    d = )" + o.update + R"(;
    )" + o.keep + R"(
  }
  for (int off = 16; off > )" + o.last + R"(; off >>= 1) {
    float mo = __shfl_xor_sync(0xffffffffu, m, off);
    float dO = __shfl_xor_sync(0xffffffffu, d, off);
    float mn = fmaxf(m, mo);
    d = )" + o.merge + R"(;
    m = mn;
  }
  float inv = 1.0f / d;
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = )" + o.out + R"(;
})";
}

} // namespace

TEST_CASE("prove: an online softmax (running sum rescaled by its running max) is softmax; near misses are not") {
  std::vector<Online> wrong(6);
  wrong[0].update = "d + __expf(v - mn)";                  // never rescaled
  wrong[1].update = "d * __expf(mn - m) + __expf(v - mn)"; // rescaled the wrong way
  wrong[2].update = "d * __expf(m - mn) + __expf(v - m)";  // the new term relative to the old max
  wrong[3].start = "1.0f";                                 // 0 in floats, not over the reals
  wrong[4].keep = "m = fmaxf(m, 0.5f * v);";               // the sum kept relative to another value
  wrong[5].update = "d * __expf(m - mn) + __logf(v - mn)"; // not an exponential
  // The branchy form: proven, and three near misses of it.
  Online branchy;
  branchy.update = "d";
  branchy.keep = "if (v > m) { d = d * __expf(m - v) + 1.0f; m = v; } else { d += __expf(v - m); }";
  for (const char *k : {"if (v > m) { d = d * __expf(v - m) + 1.0f; m = v; } else { d += __expf(v - m); }",
                        "if (v > m) { d = d * __expf(m - v) + 1.0f; m = v; } else { d += __expf(m - v); }",
                        "if (v > m) { d = d * __expf(m - v); m = v; } else { d += __expf(v - m); }"}) {
    wrong.push_back(branchy);
    wrong.back().keep = k;
  }
  SUBCASE("one thread per row") {
    Case ok = make(kSoftmax, onlineThreadKernel({}), {"64"}, {"(R + 63) / 64"});
    CHECK(prove(ok, "Y").equivalence == Status::Proven);
    Case ok2 = make(kSoftmax, onlineThreadKernel(branchy), {"64"}, {"(R + 63) / 64"});
    CHECK(prove(ok2, "Y").equivalence == Status::Proven);
    for (size_t i = 0; i < wrong.size(); ++i) {
      CAPTURE(i);
      Case c = make(kSoftmax, onlineThreadKernel(wrong[i]), {"64"}, {"(R + 63) / 64"});
      CHECK(prove(c, "Y").equivalence != Status::Proven);
    }
  }
  SUBCASE("a warp per row, (m, d) pairs merged by a butterfly") {
    Case ok = make(kSoftmax, onlineWarpKernel({}), {"32"}, {"R"});
    CHECK(prove(ok, "Y").equivalence == Status::Proven);
    Case ok2 = make(kSoftmax, onlineWarpKernel(branchy), {"32"}, {"R"});
    CHECK(prove(ok2, "Y").equivalence == Status::Proven);
    std::vector<Online> merges(4);
    merges[0].merge = "d + dO * __expf(mo - mn)";                   // own sum not rescaled
    merges[1].merge = "d * __expf(m - mn) + dO * __expf(m - mn)";   // the other's by its own max
    merges[2].merge = "d * __expf(m - mn) + dO * __expf(mo - m)";   // the other's to the old max
    merges[3].last = "1";                                           // one round short
    merges.insert(merges.end(), wrong.begin(), wrong.end());
    for (size_t i = 0; i < merges.size(); ++i) {
      CAPTURE(i);
      Case c = make(kSoftmax, onlineWarpKernel(merges[i]), {"32"}, {"R"});
      CHECK(prove(c, "Y").equivalence != Status::Proven);
    }
  }
}

TEST_CASE("prove: multiplying by the reciprocal of the spec's divisor is dividing by it; by another's is not") {
  Online recip;
  recip.out = "__expf(X[r * C + c] - m) * inv";
  CHECK(prove(make(kSoftmax, onlineWarpKernel(recip), {"32"}, {"R"}), "Y").equivalence == Status::Proven);
  std::vector<std::string> wrong = {"__expf(X[r * C + c] - m) * (1.0f / (d + 1.0f))",
                                    "__expf(X[r * C + c] - m) * inv * inv", "__expf(X[r * C + c] - m) * d"};
  for (const std::string &w : wrong) {
    CAPTURE(w);
    Online o;
    o.out = w;
    CHECK(prove(make(kSoftmax, onlineWarpKernel(o), {"32"}, {"R"}), "Y").equivalence != Status::Proven);
  }
}

namespace {

// Every element of a row scaled by the row's sum (or shifted by its mean): a block of 256 per
// row whose every thread needs the row's total.
const char *kRowScaled = R"((spec row_scaled (dims R C) (assume (<= R 4096) (<= C 4096) (> C 0))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out)
  (ensures (Y r c) (* (X r c) (sum k 0 C (X r k))))))";

const char *kRowCentred = R"((spec row_centred (dims R C) (assume (<= R 4096) (<= C 4096) (> C 0))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out)
  (ensures (Y r c) (- (X r c) (/ (sum k 0 C (X r k)) C)))))";

// The first stage (each warp's xor butterfly, lane 0 stores part[warp]), then `second`, which
// leaves the total (or the mean) in t for every thread.
std::string blockTotal(const std::string &second, const std::string &use) {
  return R"(
__global__ void block_total(const float *X, float *Y, int R, int C) {
  __shared__ float part[8];
  __shared__ float stat;
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0)
    part[warp] = s;
  __syncthreads();
  float t;
)" + second + R"(
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = )" + use + R"(;
})";
}

std::string everyWarp(int firstOffset, const char *read) {
  return "  t = " + std::string(read) + ";\n  for (int off = " + std::to_string(firstOffset) +
         "; off > 0; off >>= 1)\n    t += __shfl_xor_sync(0xffffffffu, t, off);";
}

std::string warpZeroMean(const char *stored) {
  return R"(  if (warp == 0) {
    float v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, off);
    if (lane == 0)
      stat = )" + std::string(stored) + R"(;
  }
  __syncthreads();
  t = stat;)";
}

} // namespace

TEST_CASE("prove: a block total whose second butterfly runs in every warp (padding lanes' values are their "
          "constants); near misses are not") {
  const char *read = "lane < 8 ? part[lane] : 0.0f";
  Case ok = make(kRowScaled, blockTotal(everyWarp(16, read), "X[r * C + c] * t"), {"256"}, {"R"});
  CHECK(prove(ok, "Y").equivalence == Status::Proven);
  // From offset 8, lanes 16..31 sum padding only; lane < 7 leaves warp 7 out.
  for (auto [off, r] : {std::pair{8, read}, {16, "lane < 7 ? part[lane] : 0.0f"}}) {
    CAPTURE(off);
    CAPTURE(r);
    Case bad = make(kRowScaled, blockTotal(everyWarp(off, r), "X[r * C + c] * t"), {"256"}, {"R"});
    CHECK(prove(bad, "Y").equivalence != Status::Proven);
  }
}

TEST_CASE("prove: a block mean stored as v / C by lane 0 of warp 0 (a fold inside the writer's value) is the "
          "mean; near misses are not") {
  CHECK(prove(make(kRowCentred, blockTotal(warpZeroMean("v / C"), "X[r * C + c] - t"), {"256"}, {"R"}), "Y")
            .equivalence == Status::Proven);
  for (const char *stored : {"v / (C - 1)", "(v - part[1]) / C"}) {
    CAPTURE(stored);
    CHECK(prove(make(kRowCentred, blockTotal(warpZeroMean(stored), "X[r * C + c] - t"), {"256"}, {"R"}), "Y")
              .equivalence != Status::Proven);
  }
}

namespace {

const char *kRowDev = R"((spec row_dev (dims R C) (assume (<= R 4096) (<= C 4096) (> C 0))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out)
  (define (mean r) (/ (sum c 0 C (X r c)) C))
  (ensures (Y r c) (* (X r c) (sum k 0 C (* (- (X r k) (mean r)) (- (X r k) (mean r))))))))";

// Two block sums whose second stage runs in every warp, the first one's result (the mean)
// inside each lane's terms of the second.
std::string nestedBlockSums(const char *second) {
  return R"(
__device__ float blockSum(float v, float *part) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  v = )" + std::string(second) + R"(;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}
__global__ void row_dev(const float *X, float *Y, int R, int C) {
  __shared__ float ps[8];
  __shared__ float pq[8];
  int r = blockIdx.x;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += X[r * C + c];
  float mean = blockSum(s, ps) / C;
  float q = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    q += (X[r * C + c] - mean) * (X[r * C + c] - mean);
  float t = blockSum(q, pq);
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = X[r * C + c] * t;
})";
}

} // namespace

TEST_CASE("prove: a block sum in every warp inside the lanes of another (a mean inside a variance): each "
          "warp's fold is named by its lane, whatever the warp; near misses are not") {
  CHECK(prove(make(kRowDev, nestedBlockSums("lane < 8 ? part[lane] : 0.0f"), {"256"}, {"R"}), "Y").equivalence ==
        Status::Proven);
  CHECK(prove(make(kRowDev, nestedBlockSums("lane < 7 ? part[lane] : 0.0f"), {"256"}, {"R"}), "Y").equivalence !=
        Status::Proven);
}

// A fixed grid sweeping float4s with a grid-stride loop and a scalar tail: the writer of
// element e is named by the digits of e - lane (lane, thread, block, sweep: 1, 4, 4 * 64,
// 4 * 64 * 32), and the coverage query, with its divisions shared, is answered at once.
TEST_CASE("prove: a grid-stride float4 loop over a fixed grid covers every element; near misses do not") {
  auto kernel = [](const std::string &limit, const std::string &tailLimit) {
    return R"(
__global__ void k(const float *X, float *Y, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x, n4 = N / 4;
  const float4 *X4 = reinterpret_cast<const float4 *>(X);
  float4 *Y4 = reinterpret_cast<float4 *>(Y);
  for (int i = tid; i < )" + limit + R"(; i += stride) {
    float4 v = X4[i];
    v.x *= 2.0f; v.y *= 2.0f; v.z *= 2.0f; v.w *= 2.0f;
    Y4[i] = v;
  }
  for (int i = tid; i < )" + tailLimit + R"(; i += stride)
    Y[4 * n4 + i] = 2.0f * X[4 * n4 + i];
})";
  };
  equiv::TensorProof good = prove(make(kScale, kernel("n4", "N - 4 * n4"), {"64"}, {"32"}), "Y");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // The float4 loop capped (every element past 4 * 3000 unwritten): not proven, and the
  // solver's example size is past the cap.
  equiv::TensorProof capped = prove(make(kScale, kernel("(n4 < 3000 ? n4 : 3000)", "N - 4 * n4"), {"64"}, {"32"}), "Y");
  CHECK(capped.coverage != Status::Proven);
  REQUIRE(capped.coverageExampleSizes.count("N"));
  CHECK(capped.coverageExampleSizes.at("N") > 12000);
  // The tail one short: not proven.
  CHECK(prove(make(kScale, kernel("n4", "N - 4 * n4 - 1"), {"64"}, {"32"}), "Y").coverage != Status::Proven);
}

// A grid-stride loop over a grid that grows with N: the stride blockDim.x * gridDim.x is not a
// constant, so the loop has no closed trip count, but its test is monotone in the iteration
// (the slope is known positive): iteration 0 of each thread is the writer, where it runs.
TEST_CASE("prove: a grid-stride loop over a grid sized by N covers every element; near misses do not") {
  auto kernel = [](const std::string &start, const std::string &limit) {
    return R"(
__global__ void k(const float *X, float *Y, int N) {
  for (int i = )" + start + R"(; i < )" + limit + R"(; i += blockDim.x * gridDim.x)
    Y[i] = 2.0f * X[i];
})";
  };
  const char *tid = "blockIdx.x * blockDim.x + threadIdx.x";
  equiv::TensorProof good = prove(make(kScale, kernel(tid, "N"), {"256"}, {"(N + 255) / 256"}), "Y");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // The last element left out, or the first.
  CHECK(prove(make(kScale, kernel(tid, "N - 1"), {"256"}, {"(N + 255) / 256"}), "Y").coverage != Status::Proven);
  CHECK(prove(make(kScale, kernel(std::string(tid) + " + 1", "N"), {"256"}, {"(N + 255) / 256"}), "Y").coverage !=
        Status::Proven);
}

// Atomic additions of a share of a mean (`atomicAdd(L, acc / N)`): the divisor every thread
// shares, never 0, comes out of the sum of the additions.
TEST_CASE("prove: atomic additions of each warp's sum over N are the mean; other divisors are not") {
  const char *spec = R"((spec mean_acc (dims N) (assume (<= N 1000000))
  (tensor X f32 (N) in) (tensor L f32 () inout)
  (ensures (L) (+ (old L) (/ (sum i 0 N (X i)) N)))))";
  auto kernel = [](const std::string &divisor) {
    return R"(
__global__ void k(const float *X, float *L, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (threadIdx.x % 32 == 0)
    atomicAdd(L, acc / )" + divisor + R"();
})";
  };
  CHECK(prove(make(spec, kernel("N"), {"64"}, {"8"}), "L").equivalence == Status::Proven);
  // Another constant, another size, a divisor per block, one that may be 0 (N = 1): not proven.
  for (const char *d : {"32", "(N + 1)", "(N + blockIdx.x)", "(N - 1)"}) {
    INFO(d);
    CHECK(prove(make(spec, kernel(d), {"64"}, {"8"}), "L").equivalence != Status::Proven);
  }
}

// A block sum (each warp's shuffle sum in shared memory, warp 0's second shuffle tree) added
// by one thread per block: the block's warp folds read the warps' cells, resolved for the
// adding thread's block, each warp's lanes bound to that warp (four levels: blocks, warps,
// lanes, each lane's loop).
TEST_CASE("prove: one atomicAdd per block of its warps' shuffle sums is the total; near misses are not") {
  const char *spec = R"((spec total (dims N) (assume (<= N 1000000))
  (tensor X f32 (N) in) (tensor S f32 () inout)
  (ensures (S) (+ (old S) (sum i 0 N (X i))))))";
  auto kernel = [](const std::string &warps, const std::string &first, const std::string &adders) {
    return R"(
__global__ void k(const float *X, float *S, int N) {
  __shared__ float part[8];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    part[warp] = acc;
  __syncthreads();
  if ()" + adders + R"() {
    float v = lane < )" + warps + R"( ? part[lane] : 0.0f;
    for (int off = )" + first + R"(; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      atomicAdd(S, v);
  }
})";
  };
  CHECK(prove(make(spec, kernel("8", "16", "warp == 0"), {"256"}, {"16"}), "S").equivalence == Status::Proven);
  // Warp 7's sum left out; a second tree over lanes 0 to 3 only; every warp adding the block's
  // sum: not proven.
  CHECK(prove(make(spec, kernel("7", "16", "warp == 0"), {"256"}, {"16"}), "S").equivalence != Status::Proven);
  CHECK(prove(make(spec, kernel("8", "2", "warp == 0"), {"256"}, {"16"}), "S").equivalence != Status::Proven);
  CHECK(prove(make(spec, kernel("8", "16", "true"), {"256"}, {"16"}), "S").equivalence != Status::Proven);
}

// A tile loaded cooperatively into shared memory (cell t of the block's 256 threads' sweep is
// row t / 34, column t % 34): the value read at (r, c) names its writer by those divisions,
// and the equality of the two values is asked with the divisions as shared linear chains
// (as divisions, z3 spends its whole limit on it).
TEST_CASE("prove: a stencil over a shared tile loaded with its halo is the spec's; a narrow halo is not") {
  auto run = [](int cols) {
    return prove(make(test::kTiledStencilSpec, test::tiledStencilKernel(cols), {"32", "8"},
                      {"(W + 29) / 32", "(H + 5) / 8"}),
                 "Y");
  };
  equiv::TensorProof good = run(34);
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // 33 columns loaded: column 33 of the tile is never written.
  CHECK(run(33).equivalence != Status::Proven);
}

// A loop that stops at the first of two bounds (`k < j + 4 && k < N`) runs the least of their
// counts (min(4, N - j), at most 4): its iteration is a digit of the element below the thread.
TEST_CASE("prove: a loop over four elements that also stops at the end covers every element; near misses do not") {
  const char *spec = R"((spec add2 (dims M N) (assume (<= M 4096) (<= N 4096))
  (tensor A f32 (M N) in) (tensor C f32 (M N) out)
  (ensures (C i j) (* 2.0 (A i j)))))";
  auto kernel = [](const std::string &test) {
    return R"(
__global__ void k(const float *A, float *C, int M, int N) {
  int i = blockIdx.y;
  int j = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  for (int k = j; )" + test + R"(; ++k)
    C[i * N + k] = 2.0f * A[i * N + k];
})";
  };
  auto run = [&](const std::string &test) {
    return prove(make(spec, kernel(test), {"32"}, {"(N + 127) / 128", "M"}), "C");
  };
  equiv::TensorProof good = run("k < j + 4 && k < N");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // Three of the four, or a last element short: not proven.
  CHECK(run("k < j + 3 && k < N").coverage != Status::Proven);
  CHECK(run("k < j + 4 && k < N - 1").coverage != Status::Proven);
}

// Stores whose offsets are a product of progressions (a warp's four WMMA accumulators staged
// side by side: rows 64 apart, tiles 16 and 1024 apart) are one family with a digit per
// progression; here each thread stores four cells 16, 64 and 80 past its first.
TEST_CASE("prove: four stores at offsets 0, 16, 64, 80 are one family read back by another thread; near misses are not") {
  auto kernel = [](int last) {
    return R"(
__global__ void k(const float *X, float *Y, int N) {
  __shared__ float T[128];
  int t = threadIdx.x, base = blockIdx.x * 128;
  int c = t % 16 + 32 * (t / 16);
  T[c] = base + c < N ? 2.0f * X[base + c] : 0.0f;
  T[c + 16] = base + c + 16 < N ? 2.0f * X[base + c + 16] : 0.0f;
  T[c + 64] = base + c + 64 < N ? 2.0f * X[base + c + 64] : 0.0f;
  T[c + )" + std::to_string(last) + R"(] = base + c + 80 < N ? 2.0f * X[base + c + 80] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int m = 0; m < 4; ++m)
    if (base + t + 32 * m < N)
      Y[base + t + 32 * m] = T[t + 32 * m];
})";
  };
  auto run = [&](int last) { return prove(make(kScale, kernel(last), {"32"}, {"(N + 127) / 128"}), "Y"); };
  equiv::TensorProof good = run(80);
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // The fourth store 96 past the first: cells 80 .. 95 of each 128 are never written (and 96
  // .. 111 get the values of 80 .. 95).
  CHECK(run(96).equivalence != Status::Proven);
}

// A staged cell read two barriers later is the writer's value only where no other thread
// stores it in between. (For the members of a family of eight or more stores, the check is
// made once per store site and number of barriers between, for any writer.)
TEST_CASE("prove: a cell read two barriers after its store is the writer's; not where another thread overwrites it between") {
  auto kernel = [](const std::string &between) {
    return R"(
__global__ void k(const float *X, float *Y, int N) {
  __shared__ float T[512];
  int t = threadIdx.x, base = blockIdx.x * 512;
#pragma unroll
  for (int m = 0; m < 8; ++m)
    T[t + 64 * m] = base + t + 64 * m < N ? 2.0f * X[base + t + 64 * m] : 0.0f;
  __syncthreads();
  )" + between + R"(
  __syncthreads();
#pragma unroll
  for (int m = 0; m < 8; ++m)
    if (base + t + 64 * m < N)
      Y[base + t + 64 * m] = T[t + 64 * m];
})";
  };
  auto run = [&](const std::string &between) {
    return prove(make(kScale, kernel(between), {"64"}, {"(N + 511) / 512"}), "Y");
  };
  equiv::TensorProof good = run("float u = T[t ^ 1];");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  // Thread t ^ 1 stores 0 in one of t's cells between the store and the read.
  CHECK(run("T[(t ^ 1) + 192] = 0.0f;").equivalence != Status::Proven);
  // Thread t itself adds to its own cell in between: the read sees the sum, not the first store.
  CHECK(run("T[t + 448] += 1.0f;").equivalence != Status::Proven);
}

namespace {

const char *kScan = R"((spec scan (dims N) (assume (<= N 256))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y i) (sum k 0 (+ i 1) (X k)))))";

} // namespace

// (A spec sum split in two where a kernel loop's sum covers its first or last terms.)
TEST_CASE("prove: two loops, over a prefix's first half and the rest, are the spec's prefix sum; near misses are not") {
  auto kernel = [](const std::string &first, const std::string &second) {
    return R"(
__global__ void k(const float *X, float *Y, int N) {
  int i = threadIdx.x;
  if (i < N) {
    int h = i / 2;
    float a = 0.0f, b = 0.0f;
    for (int k = )" + first + R"(; ++k) a += X[k];
    for (int k = )" + second + R"(; ++k) b += X[k];
    Y[i] = a + b;
  }
})";
  };
  auto run = [&](const std::string &first, const std::string &second) {
    return prove(make(kScan, kernel(first, second), {"256"}, {"1"}), "Y").equivalence;
  };
  CHECK(run("0; k < h", "h; k <= i") == Status::Proven);
  CHECK(run("h; k <= i", "0; k < h") == Status::Proven); // the last terms first
  CHECK(run("0; k < h", "h; k < i") != Status::Proven);  // X[i] left out
  CHECK(run("0; k < h", "h + 1; k <= i") != Status::Proven); // X[h] left out
  CHECK(run("0; k <= h", "h; k <= i") != Status::Proven); // X[h] twice
  CHECK(run("1; k < h", "h; k <= i") != Status::Proven);  // X[0] left out
}

namespace {

// One warp's inclusive scan by __shfl_up_sync; `guard` decides which lanes add what they got.
std::string warpScan(const std::string &guard, const std::string &rounds) {
  return R"(
__global__ void k(const float *X, float *Y, int N) {
  int lane = threadIdx.x;
  float v = lane < N ? X[lane] : 0.0f;
  for (int d = 1; d < )" + rounds + R"(; d *= 2) {
    float u = __shfl_up_sync(0xffffffffu, v, d);
    if ()" + guard + R"()
      v += u;
  }
  if (lane < N)
    Y[lane] = v;
})";
}

} // namespace

TEST_CASE("prove: a warp's __shfl_up_sync scan is the sum over the lanes up to each lane's own; near misses are not") {
  const char *scan32 = R"((spec scan (dims N) (assume (<= N 32))
  (tensor X f32 (N) in) (tensor Y f32 (N) out)
  (ensures (Y i) (sum k 0 (+ i 1) (X k)))))";
  auto run = [&](const std::string &guard, const std::string &rounds) {
    return prove(make(scan32, warpScan(guard, rounds), {"32"}, {"1"}), "Y").equivalence;
  };
  CHECK(run("lane >= d", "32") == Status::Proven);
  CHECK(run("lane > d", "32") != Status::Proven);  // lane d misses lane 0
  CHECK(run("true", "32") != Status::Proven);      // lanes below d add their own value again
  CHECK(run("lane >= d", "16") != Status::Proven); // a round short: lanes 16..31 miss lanes below l - 15
}

// The outer loop's counter steps by an unsigned stride (`r += gridDim.x * blockDim.x`), read
// without wrap-around on a second look; an inner loop met on that look must leave it so for
// the step after it (it was reset there, and r was unknown).
TEST_CASE("prove: a grid-stride loop over rows with an inner loop over the row is the spec's row sum; near misses are not") {
  auto kernel = [](const std::string &from) {
    return R"(
__global__ void k(const float *X, float *Y, int R, int C) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < R; r += gridDim.x * blockDim.x) {
    float acc = 0.0f;
    for (int c = )" + from + R"(; c < C; ++c)
      acc += X[r * C + c];
    Y[r] = acc;
  }
})";
  };
  auto run = [&](const std::string &from) { return prove(make(kRowSum, kernel(from), {"256"}, {"132"}), "Y"); };
  equiv::TensorProof good = run("0");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  CHECK(run("1").equivalence != Status::Proven); // the first column left out
}

TEST_CASE("prove: a row per block addressed in unsigned arithmetic is covered where it cannot wrap; not where it can") {
  // blockIdx.x * C + c is unsigned: its terms wrap around past 2^32. With R * C below 2^31 the
  // address never does, and the writer of (r, c) is block r; with R and C up to 2^20 each,
  // block r's address wraps for r * C + c >= 2^32, and rows past that are never stored.
  // (A 2-D grid: a loop over c would stop the prover first, its counter read as may-wrap.)
  auto spec = [](const std::string &assume) {
    return "(spec add_one (dims R C) (assume " + assume +
           ") (tensor X f32 (R C) in) (tensor Y f32 (R C) out) (ensures (Y r c) (+ (X r c) 1.0)))";
  };
  const std::string kernel = R"(
__global__ void k(const float *X, float *Y, int R, int C) {
  int c = blockIdx.y * 128 + threadIdx.x;
  if (c < C)
    Y[blockIdx.x * C + c] = X[blockIdx.x * C + c] + 1.0f;
})";
  const std::vector<std::string> grid{"R", "(C + 127) / 128"};
  equiv::TensorProof good = prove(make(spec("(<= (* R C) 2147483647) (<= C 65536)"), kernel, {"128"}, grid), "Y");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  equiv::TensorProof wraps = prove(make(spec("(<= R 1048576) (<= C 65536)"), kernel, {"128"}, grid), "Y");
  CHECK(wraps.coverage != Status::Proven);
}

TEST_CASE("prove: a warp per row in a grid-stride loop over rows, its butterfly inside the loop; near misses are not") {
  // The exchanges run once per round of the loop: a lane reads what its owner stored in the
  // same round (wx.N(cell, round)).
  auto kernel = [](const std::string &first, const std::string &shfl, const std::string &writer) {
    return R"(
__global__ void k(const float *X, float *Y, int R, int C) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 8 + (threadIdx.x >> 5); r < R; r += gridDim.x * 8) {
    float s = 0.0f;
    for (int c = lane; c < C; c += 32)
      s += X[r * C + c];
    for (int o = )" + first + R"(; o > 0; o >>= 1)
      s += )" + shfl + R"((0xffffffffu, s, o);
    if (lane == )" + writer + R"()
      Y[r] = s;
  }
})";
  };
  auto run = [&](const std::string &first, const std::string &shfl, const std::string &writer) {
    return prove(make(kRowSum, kernel(first, shfl, writer), {"256"}, {"132"}), "Y");
  };
  equiv::TensorProof good = run("16", "__shfl_xor_sync", "0");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  CHECK(run("16", "__shfl_xor_sync", "5").equivalence == Status::Proven); // (every lane holds the sum)
  CHECK(run("8", "__shfl_xor_sync", "0").equivalence != Status::Proven);   // a round short
  CHECK(run("16", "__shfl_down_sync", "0").equivalence == Status::Proven);
  CHECK(run("16", "__shfl_down_sync", "5").equivalence != Status::Proven); // only lane 0 holds it
}

TEST_CASE("prove: a warp per row in a grid-stride loop, each lane storing a strided slice of the row, is covered") {
  // The writer of (r, c): block (r mod 1056) div 8, lane c mod 32 of warp r mod 8, in the outer
  // loop's iteration r div 1056 (the row's step per round is 1056, the flat address's 1056 C),
  // the inner loop's c div 32. A slice loop from lane + 32 leaves columns 0..31 unstored.
  auto kernel = [](const std::string &from) {
    return R"(
__global__ void k(const float *X, float *Y, int R, int C) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 8 + (threadIdx.x >> 5); r < R; r += gridDim.x * 8)
    for (int c = )" + from + R"(; c < C; c += 32)
      Y[r * C + c] = 2.0f * X[r * C + c];
})";
  };
  const char *spec = R"((spec twice (dims R C) (assume (<= R 4096) (<= C 4096))
  (tensor X f32 (R C) in) (tensor Y f32 (R C) out) (ensures (Y r c) (* 2.0 (X r c)))))";
  equiv::TensorProof good = prove(make(spec, kernel("lane"), {"256"}, {"132"}), "Y");
  CHECK(good.coverage == Status::Proven);
  CHECK(good.equivalence == Status::Proven);
  CHECK(prove(make(spec, kernel("lane + 32"), {"256"}, {"132"}), "Y").coverage != Status::Proven);
}

TEST_CASE("prove: an infinite float literal (INFINITY is __builtin_inff()) is its IEEE value, which proofs leave alone") {
  // A min fold from INFINITY is right in IEEE arithmetic, but an infinity reaching arithmetic
  // is not (inf - inf is NaN): the prover does not tell the two apart, so it gives up on both.
  Case c = make(kRowMin, R"(
__global__ void row_min(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float m = INFINITY;
    for (int c = 0; c < C; ++c)
      m = fminf(m, X[r * C + c]);
    Y[r] = m;
  }
})", {"128"}, {"(R + 127) / 128"});
  // The literal is a constant, not the unknown result of a call without a body.
  bool inf = false;
  std::function<void(const ir::Expr &)> scan = [&](const ir::Expr &e) {
    inf |= e.op == ir::Op::Const && e.type.isFloat() && std::isinf(e.fval) && e.fval > 0;
    for (const ir::ExprPtr &a : e.args)
      if (a)
        scan(*a);
  };
  std::function<void(const ir::Block &)> walk = [&](const ir::Block &b) {
    for (const ir::StmtPtr &s : b) {
      CHECK(s->kind != ir::StmtKind::Havoc);
      if (s->value)
        scan(*s->value);
      for (const ir::Block *k : {&s->pre, &s->body, &s->elseBody, &s->step})
        walk(*k);
    }
  };
  walk(c.k.body);
  CHECK(inf);
  equiv::ProofReport r = equiv::proveAgainstSpec(c.k, c.s, c.b, c.o);
  CHECK(r.unavailable.find("infinite or NaN float literal") != std::string::npos);
}

namespace {

const char *kSumDim1 = R"((spec sum_dim1 (dims B D1 D2) (assume (<= B 4096) (<= D1 4096) (<= D2 4096))
  (tensor X f32 (B D1 D2) in) (tensor Y f32 (B 1 D2) out)
  (ensures (Y b z j) (sum k 0 D1 (X b k j)))))";

// One thread per output element at flat index idx, split by the kernel itself.
std::string sumDim1Kernel(const std::string &split) {
  return R"(
__global__ void sum_dim1(const float *X, float *Y, int B, int D1, int D2) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * D2) return;
  )" + split + R"(;
  float acc = 0.0f;
  for (int r = 0; r < D1; ++r) acc += X[(b * D1 + r) * D2 + n];
  Y[idx] = acc;
})";
}

} // namespace

TEST_CASE("prove: an output stored at a flat index the kernel splits by division is the spec's element there; "
          "near misses are not") {
  Case ok = make(kSumDim1, sumDim1Kernel("int b = idx / D2, n = idx % D2"), {"256"}, {"(B * D2 + 255) / 256"});
  equiv::TensorProof t = prove(ok, "Y");
  CHECK(t.coverage == Status::Proven);
  CHECK(t.equivalence == Status::Proven);
  for (const char *wrong : {"int b = idx / D2, n = idx % D1", "int b = idx / D1, n = idx % D2",
                            "int b = idx / D2, n = (idx + 1) % D2"}) {
    CAPTURE(wrong);
    Case c = make(kSumDim1, sumDim1Kernel(wrong), {"256"}, {"(B * D2 + 255) / 256"});
    CHECK(prove(c, "Y").equivalence != Status::Proven);
  }
}

namespace {

const char *kRelu4d = R"((spec relu4d (dims N C H W) (assume (<= (* N C H W) 2147483647))
  (tensor X f32 (N C H W) in) (tensor Y f32 (N C H W) out)
  (ensures (Y n c h w) (max (X n c h w) 0.0))))";

std::string relu4dKernel(const std::string &channel) {
  return R"(
__global__ void relu4d(const float *X, float *Y, int N, int C, int H, int W) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * C * H * W) return;
  int w = idx % W;
  int h = (idx / W) % H;
  int c = )" + channel + R"(;
  int n = idx / (W * H * C);
  float v = X[((n * C + c) * H + h) * W + w];
  Y[((n * C + c) * H + h) * W + w] = v > 0.f ? v : 0.f;
})";
}

} // namespace

TEST_CASE("prove: one thread per element of a 4-D tensor, its flat index split and recomposed, covers the tensor; "
          "a wrong split does not") {
  Case ok = make(kRelu4d, relu4dKernel("(idx / (W * H)) % C"), {"256"}, {"(N * C * H * W + 255) / 256"});
  equiv::TensorProof t = prove(ok, "Y");
  CHECK(t.coverage == Status::Proven);
  CHECK(t.equivalence == Status::Proven);
  Case wrong = make(kRelu4d, relu4dKernel("(idx / W) % C"), {"256"}, {"(N * C * H * W + 255) / 256"});
  equiv::TensorProof w = prove(wrong, "Y");
  CHECK(w.coverage != Status::Proven);
}
