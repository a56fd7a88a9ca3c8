// Register tiles: counted loops whose counter indexes a thread-local array are unrolled, the
// array's accesses become constant-indexed and it is split into scalars; loops that stage a
// shared tile are unrolled too. Checked on the KIR and by running it.
#include "frontend_support.h"
#include "run_block.h"

#include "verify/interp/interp.h"

#include <string>

using namespace ksynth::ir;
using namespace ksynth::frontend::test;

namespace {

bool accessesArray(const Kernel &k, int a) {
  bool any = false;
  walk(k.body, [&](const Stmt &s) {
    if ((s.kind == StmtKind::Load || s.kind == StmtKind::Store) && s.ptr && s.ptr->op == Op::ArrayRef &&
        s.ptr->id == a)
      any = true;
  });
  return any;
}

// out's contents after one block of `threads` runs (-1: not written); floats as their value.
std::vector<double> run(const Kernel &k, int64_t threads, int64_t cells) {
  int out = -1;
  ksynth::interp::GridRun r = runOneBlock(k, threads, cells, out);
  CHECK(r.faults.empty());
  std::vector<double> v(static_cast<size_t>(cells), -1);
  for (int64_t c = 0; c < cells; ++c) {
    auto it = r.memory.find({out, c});
    if (it != r.memory.end())
      v[static_cast<size_t>(c)] = it->second.kind == ksynth::interp::Value::Kind::Float
                                      ? it->second.f
                                      : static_cast<double>(it->second.i);
  }
  return v;
}

} // namespace

TEST_CASE("a 2 x 3 register tile becomes six scalars, and computes what the array did") {
  Kernel k = one(R"(
__global__ void k(float *out) {
  float acc[2][3] = {};
  for (int s = 0; s < 4; ++s) {          // not unrolled: nothing local is indexed by s
#pragma unroll
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        acc[i][j] += (float)(s * (i + 1) + j);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      out[threadIdx.x * 6 + i * 3 + j] = acc[i][j];
}
)");
  int acc = arrayNamed(k, "acc");
  REQUIRE(acc >= 0);
  CHECK(!accessesArray(k, acc));
  CHECK(varNamed(k, "acc[1][2]") >= 0);
  CHECK(stmts(k, StmtKind::Loop).size() == 1); // the s loop only
  std::vector<double> v = run(k, 2, 12);
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        double want = 0;
        for (int s = 0; s < 4; ++s)
          want += s * (i + 1) + j;
        CHECK(v[static_cast<size_t>(t * 6 + i * 3 + j)] == want);
      }
}

TEST_CASE("an initialiser list zero-fills what it does not list, nested braces included") {
  Kernel k = one(R"(
__global__ void k(float *out) {
  float t[4] = {1.5f};
  float m[2][2] = {{2.0f}, {3.0f, 4.0f}};
  out[0] = t[0]; out[1] = t[3];
  out[2] = m[0][0]; out[3] = m[0][1]; out[4] = m[1][0]; out[5] = m[1][1];
}
)");
  std::vector<double> v = run(k, 1, 6);
  CHECK(v == std::vector<double>{1.5, 0, 2, 0, 3, 4});
}

TEST_CASE("an uninitialised element is an unknown value, not zero") {
  Kernel k = one(R"(
__global__ void k(float *out) {
  float t[2];
  t[0] = 1.0f;
  out[0] = t[1];
}
)");
  auto havocs = stmts(k, StmtKind::Havoc);
  REQUIRE(havocs.size() == 2);
  CHECK(havocs[1]->text.find("t[1]") != std::string::npos);
}

TEST_CASE("an index known only at run time, or past the end, keeps the array") {
  Kernel k = one(R"(
__global__ void k(float *out, int n) {
  float t[4];
  for (int i = 0; i < 4; ++i) t[i] = 1.0f;
  out[0] = t[n & 3];
}
)");
  CHECK(accessesArray(k, arrayNamed(k, "t")));
  Kernel k2 = one(R"(
__global__ void k(float *out) {
  float t[4];
  for (int i = 0; i <= 4; ++i) t[i] = 1.0f;
  out[0] = t[0];
}
)");
  CHECK(accessesArray(k2, arrayNamed(k2, "t"))); // t[4]: the bounds check must see it
}

TEST_CASE("a loop that stages a shared tile is unrolled; one that accumulates is not") {
  Kernel k = one(R"(
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  for (int l = 0; l < 4; ++l)
    s[threadIdx.x + 16 * l] = in[threadIdx.x + 16 * l];
  __syncthreads();
  float acc = 0.0f;
  for (int l = 0; l < 4; ++l)
    acc += s[threadIdx.x * 4 + l];
  out[threadIdx.x] = acc;
}
)");
  CHECK(stmts(k, StmtKind::Loop).size() == 1);
  int s = arrayNamed(k, "s");
  int stores = 0;
  for (const Stmt *st : stmts(k, StmtKind::Store))
    stores += st->ptr->op == Op::ArrayRef && st->ptr->id == s;
  CHECK(stores == 4);
}

// A shuffle loop bounded by a tile's size (`d < tile.size()`: the Size of its
// thread_block_tile<Size>) is unrolled like one bounded by 32. Its counter is compared as
// unsigned there, so a loop whose counter starts negative is not unrolled (-1 compares as a
// large number: the loop does not run, which unrolling from -1 would get wrong).
TEST_CASE("a shuffle loop up to tile.size() is unrolled; one whose counter compares as unsigned from -1 is not") {
  auto kernel = [](const std::string &start, const std::string &inc) {
    return R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = 1.0f;
  for (int d = )" + start + R"(; d < tile.size(); )" + inc + R"()
    v += tile.shfl_down(v, d < 0 ? 0 : d);
  out[threadIdx.x] = v;
}
)";
  };
  Kernel k = one(kernel("1", "d *= 2"));
  CHECK(stmts(k, StmtKind::Loop).empty());
  Kernel neg = one(kernel("-1", "d += 2"));
  CHECK(stmts(neg, StmtKind::Loop).size() == 1);
}
