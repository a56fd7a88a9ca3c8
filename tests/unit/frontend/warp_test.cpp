// Warp-level primitives: what they lower to, and what the lowered code computes when the
// interpreter runs a whole block (each value checked against CUDA's rules, written out here).
#include "frontend_support.h"
#include "run_block.h"

#include "verify/interp/interp.h"

#include <algorithm>
#include <string>

using namespace ksynth::ir;
using namespace ksynth::frontend::test;
using ksynth::frontend::Diagnostic;

namespace {

// Runs the only kernel of `code`, with parameter `out` of `cells` ints, on one block of
// `threads`; returns out's final contents (-1: not written) and, in `faults`, the run's faults.
std::vector<int64_t> runBlock(const Kernel &k, int64_t threads, int64_t cells, std::vector<ksynth::interp::Fault> *faults = nullptr) {
  int out = -1;
  ksynth::interp::GridRun run = runOneBlock(k, threads, cells, out);
  if (faults)
    *faults = run.faults;
  std::vector<int64_t> v(static_cast<size_t>(cells), -1);
  for (int64_t c = 0; c < cells; ++c) {
    auto it = run.memory.find({out, c});
    if (it != run.memory.end())
      v[static_cast<size_t>(c)] = static_cast<int64_t>(it->second.i);
  }
  return v;
}

// Runs one block of `threads` with `out` of `cells` elements and the scalar parameter `name`
// set to `value`.
ksynth::interp::GridRun runWithParam(const Kernel &k, int64_t threads, int64_t cells, const std::string &name,
                                     int64_t value) {
  ksynth::interp::Env env;
  env.block = {threads, 1, 1};
  env.grid = {1, 1, 1};
  env.lens[k.findParamArray("out")] = cells;
  for (const Param &p : k.params)
    if (!p.isArray && k.vars[p.id].name == name)
      env.params[p.id] = ksynth::interp::Value::ofInt(value);
  return ksynth::interp::runGrid(k, env);
}

} // namespace

TEST_CASE("a shuffle lowers to an exchange: store, __syncwarp, warp assertion, guarded load, __syncwarp") {
  Kernel k = one(R"(
__global__ void k(float *out) {
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, 1.0f * threadIdx.x, 4);
}
)");
  auto stores = stmts(k, StmtKind::Store), loads = stmts(k, StmtKind::Load);
  REQUIRE(stores.size() == 2); // the exchange cell, then out[...]
  REQUIRE(loads.size() == 1);
  const Array &x = k.arrays[stores[0]->ptr->id];
  CHECK(x.space == Space::Shared);
  CHECK(x.name == "warp_xchg_f32");
  CHECK(loads[0]->ptr->id == stores[0]->ptr->id);
  auto barriers = stmts(k, StmtKind::Barrier);
  REQUIRE(barriers.size() == 2);
  for (const Stmt *b : barriers)
    CHECK(b->barrier == BarrierKind::Warp);
  auto asserts = stmts(k, StmtKind::Assert);
  REQUIRE(asserts.size() == 1);
  CHECK(asserts[0]->assertKind == AssertKind::Warp);
  CHECK(asserts[0]->text.find("reads a lane that does not exist") != std::string::npos);
  CHECK(stmts(k, StmtKind::Unsupported).empty());
}

TEST_CASE("a computed width is unsupported, with the reason") {
  Kernel k = one("__global__ void k(float *out, unsigned m, int w) {\n  float v = out[0];\n  out[1] = "
                 "__shfl_down_sync(0xffffffff, v, 1, w);\n}\n");
  auto u = stmts(k, StmtKind::Unsupported);
  REQUIRE(u.size() == 1);
  CHECK(u[0]->text.find("width") != std::string::npos);
}

TEST_CASE("a computed mask is evaluated once into a temporary that the barriers hold and the warp assertions test") {
  Kernel k = one("__global__ void k(float *out, unsigned m) {\n  float v = out[0];\n  out[1] = "
                 "__shfl_down_sync(m, v, 1);\n}\n");
  CHECK(stmts(k, StmtKind::Unsupported).empty());
  for (const Stmt *s : stmts(k, StmtKind::Assert))
    CHECK(s->assertKind != AssertKind::Modelled); // no premise: the mask is modelled as it is
  auto barriers = stmts(k, StmtKind::Barrier);
  REQUIRE(barriers.size() == 2);
  for (const Stmt *b : barriers) {
    CHECK(b->barrier == BarrierKind::Warp);
    REQUIRE(b->value);
    CHECK(b->value->op == Op::VarRef); // the temporary, not the expression again
    CHECK(b->value->id == barriers[0]->value->id);
    CHECK(!warpMask(*b).has_value());
  }
  std::vector<std::string> texts;
  for (const Stmt *s : stmts(k, StmtKind::Assert))
    texts.push_back(s->text);
  REQUIRE(texts.size() == 3);
  CHECK(texts[0].find("is called by a lane that its mask 'm' does not name") != std::string::npos);
  CHECK(texts[2].find("reads a lane that its mask 'm' does not name") != std::string::npos);
  // Run: the mask names lanes 0..7 of each warp in one run; lane 7 reads lane 8, which it does
  // not name (fails), lanes 0..6 their neighbour; lanes 8..31 are not named (fail the caller's
  // assertion) and meet the barriers alone.
  ksynth::interp::GridRun run = runWithParam(k, 32, 2, "m", 0xff);
  CHECK(run.completed);
  bool lane7Reads = false;
  for (const ksynth::interp::Fault &f : run.faults) { // the first 16, in thread order
    REQUIRE(f.event.kind == ksynth::interp::EventKind::AssertFail);
    CHECK(f.thread.thread.x >= 7); // lanes 0..6 are named and read named lanes
    if (f.event.stmt->text.find("is called by") != std::string::npos)
      CHECK(f.thread.thread.x >= 8);
    else
      CHECK(f.event.stmt->text.find("reads a lane that its mask") != std::string::npos);
    lane7Reads |= f.thread.thread.x == 7;
  }
  CHECK(lane7Reads);
  CHECK(run.faults.size() == 16);
}

TEST_CASE("__activemask() is a choice naming the calling lane; concrete runs name the caller alone") {
  Kernel k = one("__global__ void k(int *out) {\n  unsigned m = __activemask();\n  out[threadIdx.x] = (int)m;\n"
                 "  out[32 + threadIdx.x] = __shfl_sync(m, (int)threadIdx.x, 0);\n}\n");
  CHECK(stmts(k, StmtKind::Unsupported).empty());
  auto h = stmts(k, StmtKind::Havoc);
  REQUIRE(h.size() == 1);
  CHECK(h[0]->warpCollective);
  REQUIRE(h[0]->value);
  CHECK(stmts(k, StmtKind::Assume).size() == 1); // the caller is named
  std::vector<ksynth::interp::Fault> faults;
  std::vector<int64_t> got = runBlock(k, 32, 64, &faults);
  for (int64_t t = 0; t < 32; ++t) {
    CAPTURE(t);
    CHECK(got[static_cast<size_t>(t)] == static_cast<int32_t>(1u << t));
  }
  // Lane 0's read is its own; every other lane reads lane 0, which its mask does not name.
  CHECK(got[32] == 0);
  int reads = 0;
  for (const ksynth::interp::Fault &f : faults) {
    CHECK(f.event.stmt->text.find("reads a lane that its mask") != std::string::npos);
    CHECK(f.thread.thread.x != 0);
    ++reads;
  }
  CHECK(reads == 16);
}

TEST_CASE("a vote of a function of the thread's coordinates folds the lanes' operands computed from them") {
  // t, lim never change: each lane's predicate is computed from its coordinates (no load of the
  // exchange); a loaded value, a changed local or a device function's parameter is read from
  // the lane's cell.
  auto loadsOfExchange = [](const Kernel &k) {
    size_t n = 0;
    for (const Stmt *s : stmts(k, StmtKind::Load))
      n += k.arrays[s->ptr->id].warpExchange;
    return n;
  };
  Kernel pure = one("__global__ void k(int *out, int lim) {\n  int t = threadIdx.x;\n  const int w = t / 32;\n"
                    "  out[t] = (int)__ballot_sync(0xffffffffu, t % 3 == 0 && w < lim);\n}\n");
  CHECK(loadsOfExchange(pure) == 0);
  Kernel loaded = one("__global__ void k(int *out) {\n  int t = threadIdx.x;\n"
                      "  out[t] = (int)__ballot_sync(0xffffffffu, out[t] > 0);\n}\n");
  CHECK(loadsOfExchange(loaded) == 32);
  Kernel changed = one("__global__ void k(int *out) {\n  int t = threadIdx.x;\n  if (out[0] > 0)\n    t = 5;\n"
                       "  out[t] = (int)__ballot_sync(0xffffffffu, t % 3 == 0);\n}\n");
  CHECK(loadsOfExchange(changed) == 32);
  Kernel param = one("__device__ unsigned vote(int p) { return __ballot_sync(0xffffffffu, p > 2); }\n"
                     "__global__ void k(int *out) {\n  out[threadIdx.x] = (int)vote(threadIdx.x);\n}\n");
  CHECK(loadsOfExchange(param) == 32);
  // Run: the same ballots as the lanes' own predicates give (two warps, lim = 1: warp 1 votes 0).
  ksynth::interp::GridRun run = runWithParam(pure, 64, 64, "lim", 1);
  int out = pure.findParamArray("out");
  REQUIRE(run.completed);
  for (int64_t t = 0; t < 64; ++t) {
    CAPTURE(t);
    int64_t want = 0;
    for (int64_t j = 0; j < 32 && t < 32; ++j)
      if ((t - t % 32 + j) % 3 == 0)
        want |= int64_t{1} << j;
    auto it = run.memory.find({out, t});
    REQUIRE(it != run.memory.end());
    CHECK(static_cast<int64_t>(it->second.i) == static_cast<int32_t>(static_cast<uint32_t>(want)));
  }
}

TEST_CASE("a constant partial mask: the caller and the lane read must be named, the barriers hold the mask") {
  Kernel k = one("__global__ void k(float *out) {\n  float v = out[0];\n  out[1] = "
                 "__shfl_down_sync(0x0000ff00u, v, 1);\n}\n");
  CHECK(stmts(k, StmtKind::Unsupported).empty());
  auto barriers = stmts(k, StmtKind::Barrier);
  REQUIRE(barriers.size() == 2);
  for (const Stmt *b : barriers) {
    REQUIRE(warpMask(*b).has_value());
    CHECK(*warpMask(*b) == 0x0000ff00u);
  }
  std::vector<std::string> texts;
  for (const Stmt *s : stmts(k, StmtKind::Assert)) {
    CHECK(s->assertKind == AssertKind::Warp);
    texts.push_back(s->text);
  }
  REQUIRE(texts.size() == 3);
  CHECK(texts[0].find("is called by a lane that its mask 0x0000ff00 does not name") != std::string::npos);
  CHECK(texts[1].find("reads a lane that does not exist") != std::string::npos);
  CHECK(texts[2].find("reads a lane that its mask 0x0000ff00 does not name") != std::string::npos);
  // __syncwarp with a partial constant mask: one masked barrier after the caller's assertion.
  Kernel w = one("__global__ void k(float *out) {\n  __syncwarp(0x3u);\n}\n");
  CHECK(stmts(w, StmtKind::Unsupported).empty());
  REQUIRE(stmts(w, StmtKind::Barrier).size() == 1);
  CHECK(warpMask(*stmts(w, StmtKind::Barrier)[0]) == std::optional<uint32_t>(3u));
  CHECK(stmts(w, StmtKind::Assert).size() == 1);
}

TEST_CASE("with partial masks each half-warp exchanges on its own; a vote folds only the named lanes") {
  Kernel k = one(R"(
__global__ void k(int *out) {
  int t = threadIdx.x;
  if (t % 32 < 16) {
    out[t] = __shfl_xor_sync(0x0000ffffu, t * 10, 1);
    out[64 + t] = (int)__ballot_sync(0x0000ffffu, t % 3 == 0);
    out[128 + t] = (int)__reduce_add_sync(0x0000ffffu, 1u);
  } else {
    out[t] = __shfl_down_sync(0xffff0000u, t * 10, 4, 16);
  }
}
)");
  std::vector<ksynth::interp::Fault> faults;
  std::vector<int64_t> got = runBlock(k, 64, 192, &faults);
  CHECK(faults.empty()); // every lane's masked barriers release: no divergence
  for (int64_t t = 0; t < 64; ++t) {
    CAPTURE(t);
    int64_t lane = t % 32, base = t - lane;
    if (lane < 16) {
      CHECK(got[static_cast<size_t>(t)] == (t ^ 1) * 10);
      int64_t ballot = 0;
      for (int64_t j = 0; j < 16; ++j)
        if ((base + j) % 3 == 0)
          ballot |= int64_t{1} << j;
      CHECK(got[static_cast<size_t>(64 + t)] == ballot);
      CHECK(got[static_cast<size_t>(128 + t)] == 16);
    } else {
      CHECK(got[static_cast<size_t>(t)] == (lane % 16 + 4 < 16 ? (t + 4) * 10 : t * 10));
      CHECK(got[static_cast<size_t>(64 + t)] == -1);
    }
  }
}

TEST_CASE("a function of the file without a body is some value, not a shuffle, whatever its name") {
  std::vector<Diagnostic> notes;
  Kernel k = one(R"(
__device__ float __my_shfl(unsigned mask, float v, int d, int w);
__global__ void k(float *out) {
  out[0] = __my_shfl(0xffffffff, out[1], 1, 32);
}
)",
                 &notes);
  CHECK(stmts(k, StmtKind::Havoc).size() == 1);
  CHECK(stmts(k, StmtKind::Barrier).empty());
}

TEST_CASE("shuffles, votes and warp reductions compute what CUDA specifies, lane by lane") {
  Kernel k = one(R"(
#define FULL 0xffffffffu
__global__ void k(int *out) {
  int t = threadIdx.x;
  out[0 * 64 + t] = __shfl_sync(FULL, t * 10, t + 3, 8);
  out[1 * 64 + t] = __shfl_up_sync(FULL, t * 10, 3, 8);
  out[2 * 64 + t] = __shfl_down_sync(FULL, t * 10, 5, 16);
  out[3 * 64 + t] = __shfl_xor_sync(FULL, t * 10, 9, 8);
  out[4 * 64 + t] = __shfl_xor_sync(FULL, t * 10, 2);
  out[5 * 64 + t] = (int)__ballot_sync(FULL, t % 3 == 0);
  out[6 * 64 + t] = __reduce_max_sync(FULL, (t * 7) % 13);
  out[7 * 64 + t] = __all_sync(FULL, t != 5) + 2 * __any_sync(FULL, t == 40);
  out[8 * 64 + t] = (int)__reduce_add_sync(FULL, (unsigned)t);
}
)");
  std::vector<int64_t> got = runBlock(k, 64, 9 * 64);
  for (int64_t t = 0; t < 64; ++t) {
    CAPTURE(t);
    int64_t lane = t % 32, base = t - lane;
    auto at = [&](int row) { return got[static_cast<size_t>(row * 64 + t)]; };
    // srcLane modulo the width, inside the lane's segment.
    CHECK(at(0) == (base + (lane - lane % 8) + (t + 3) % 8) * 10);
    // up: the lowest `delta` lanes of each segment keep their own value.
    CHECK(at(1) == (lane % 8 >= 3 ? (t - 3) * 10 : t * 10));
    // down: lanes whose source is past their segment keep their own value.
    CHECK(at(2) == (lane % 16 + 5 < 16 ? (t + 5) * 10 : t * 10));
    // xor into a later segment gives the own value; into an earlier one, that lane's.
    int64_t x9 = lane ^ 9;
    CHECK(at(3) == (x9 < lane - lane % 8 + 8 ? (base + x9) * 10 : t * 10));
    CHECK(at(4) == (base + (lane ^ 2)) * 10);
    int64_t ballot = 0, mx = 0, sum = 0;
    bool all = true, any = false;
    for (int64_t j = 0; j < 32; ++j) {
      if ((base + j) % 3 == 0)
        ballot |= int64_t{1} << j;
      mx = std::max(mx, ((base + j) * 7) % 13);
      all &= base + j != 5;
      any |= base + j == 40;
      sum += base + j;
    }
    CHECK(at(5) == static_cast<int32_t>(static_cast<uint32_t>(ballot)));
    CHECK(at(6) == mx);
    CHECK(at(7) == (all ? 1 : 0) + 2 * (any ? 1 : 0));
    CHECK(at(8) == sum);
  }
}

TEST_CASE("in a partial last warp a shuffle from a missing lane fails its warp assertion; votes see only real lanes") {
  Kernel k = one(R"(
__global__ void k(int *out) {
  int t = threadIdx.x;
  out[t] = __shfl_down_sync(0xffffffff, t, 8);
  out[48 + t] = (int)__ballot_sync(0xffffffff, 1);
}
)");
  std::vector<ksynth::interp::Fault> faults;
  std::vector<int64_t> got = runBlock(k, 48, 96, &faults);
  // Lanes 40..47 of the second warp read 48..55, which do not exist.
  int64_t failing = 0;
  for (const ksynth::interp::Fault &f : faults) {
    CHECK(f.event.kind == ksynth::interp::EventKind::AssertFail);
    CHECK(f.thread.thread.x >= 40);
    ++failing;
  }
  CHECK(failing == 8);
  CHECK(got[0] == 8);
  CHECK(got[39] == 47);
  CHECK(got[48 + 0] == static_cast<int32_t>(0xffffffffu));
  CHECK(got[48 + 40] == 0xffff); // 16 lanes in the last warp
}

// ---- vector access (lower_vector.cpp) ---------------------------------------------------

TEST_CASE("a float4 view of a float array is four accesses of that array at 4 i + f, after an align assertion") {
  Kernel k = one(R"(
__global__ void k(const float *x, float *out) {
  int i = threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(x)[i];
  out[4 * i] = v.x + v.y + v.z + v.w;
}
)");
  int x = k.findParamArray("x");
  auto loads = stmts(k, StmtKind::Load);
  REQUIRE(loads.size() == 4);
  auto asserts = stmts(k, StmtKind::Assert);
  REQUIRE(asserts.size() == 1);
  CHECK(asserts[0]->assertKind == AssertKind::Align);
  CHECK(asserts[0]->text.find("16 bytes") != std::string::npos);
  CHECK(k.arrays[x].align == 256);
  // Run it: thread t reads x[4t .. 4t + 3].
  ksynth::interp::Env env;
  env.block = {8, 1, 1};
  int out = k.findParamArray("out");
  env.lens[x] = 32;
  env.lens[out] = 32;
  for (int64_t c = 0; c < 32; ++c)
    env.memory[{x, c}] = ksynth::interp::Value::ofFloat(static_cast<double>(c));
  ksynth::interp::GridRun run = ksynth::interp::runGrid(k, env);
  REQUIRE(run.completed);
  CHECK(run.faults.empty());
  for (int64_t t = 0; t < 8; ++t)
    CHECK(run.memory.at({out, 4 * t}).f == doctest::Approx(16.0 * t + 6.0));
}

TEST_CASE("a misaligned view fails its align assertion when run; a view of a type that is not a vector of the "
          "pointer's scalars is unsupported") {
  Kernel k = one(R"(
__global__ void k(const float *x, float *out) {
  float2 v = *reinterpret_cast<const float2 *>(x + threadIdx.x);
  out[threadIdx.x] = v.x;
}
)");
  ksynth::interp::Env env;
  env.block = {2, 1, 1};
  env.lens[k.findParamArray("x")] = 8;
  env.lens[k.findParamArray("out")] = 8;
  ksynth::interp::GridRun run = ksynth::interp::runGrid(k, env);
  REQUIRE(run.completed);
  REQUIRE(run.faults.size() == 1); // thread 1: x + 1 is 4 bytes past an 8-byte boundary
  CHECK(run.faults[0].event.kind == ksynth::interp::EventKind::AssertFail);
  CHECK(run.faults[0].thread.thread.x == 1);

  Kernel bad = one(R"(
__global__ void k(const int *x, float *out) {
  float4 v = *reinterpret_cast<const float4 *>(x);
  out[0] = v.x;
}
)");
  auto u = stmts(bad, StmtKind::Unsupported);
  REQUIRE(!u.empty());
  CHECK(u[0]->text.find("is not a vector of") != std::string::npos);
}

TEST_CASE("cooperative groups: a thread_block_tile is a segment of a warp, its shuffles have the tile's width, "
          "cg::reduce leaves the fold in every lane of the tile") {
  Kernel k = one(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
  auto t16 = cg::tiled_partition<16>(b);
  int t = threadIdx.x;
  out[0 * 64 + t] = (int)t8.thread_rank() + 100 * (int)t8.meta_group_rank();
  out[1 * 64 + t] = t8.shfl_down(t * 10, 3);
  out[2 * 64 + t] = t16.shfl(t * 10, 5);
  out[3 * 64 + t] = t8.shfl_xor(t * 10, 4);
  out[4 * 64 + t] = cg::reduce(t8, t, cg::plus<int>());
  out[5 * 64 + t] = cg::reduce(t16, (t * 7) % 13, cg::greater<int>());
  out[6 * 64 + t] = cg::reduce(t16, (t * 7) % 13, cg::less<int>());
  out[7 * 64 + t] = (int)t16.size();
  t16.sync();
}
)");
  // t16.sync() is a __syncwarp(); tile shuffles are exchanges like the warp's.
  for (const Stmt *b : stmts(k, StmtKind::Barrier))
    CHECK(b->barrier == BarrierKind::Warp);
  std::vector<int64_t> got = runBlock(k, 64, 8 * 64);
  for (int64_t t = 0; t < 64; ++t) {
    CAPTURE(t);
    auto at = [&](int row) { return got[static_cast<size_t>(row * 64 + t)]; };
    int64_t r8 = t % 8, b8 = t - r8, b16 = t - t % 16;
    CHECK(at(0) == r8 + 100 * (t / 8));
    CHECK(at(1) == (r8 + 3 < 8 ? (t + 3) * 10 : t * 10));
    CHECK(at(2) == (b16 + 5) * 10);
    CHECK(at(3) == (b8 + (r8 ^ 4)) * 10);
    int64_t sum = 0, mx = 0, mn = 100;
    for (int64_t j = 0; j < 8; ++j)
      sum += b8 + j;
    for (int64_t j = 0; j < 16; ++j) {
      mx = std::max(mx, ((b16 + j) * 7) % 13);
      mn = std::min(mn, ((b16 + j) * 7) % 13);
    }
    CHECK(at(4) == sum);
    CHECK(at(5) == mx);
    CHECK(at(6) == mn);
    CHECK(at(7) == 16);
  }
}

TEST_CASE("cooperative groups: a tile's votes (ballot, any, all) are over the tile's lanes, bit j its rank j; "
          "in a partial last tile only real lanes vote") {
  Kernel k = one(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int t = threadIdx.x;
  out[0 * 64 + t] = (int)t8.ballot(t % 3 == 0);
  out[1 * 64 + t] = t8.any(t == 13) + 2 * t8.all(t != 18);
  out[2 * 64 + t] = (int)t32.ballot(t % 5 == 1);
  out[3 * 64 + t] = t32.all(1);
}
)");
  for (const Stmt *b : stmts(k, StmtKind::Barrier))
    CHECK(b->barrier == BarrierKind::Warp);
  const int64_t threads = 60; // the last 8-lane tile has 4 threads, the last warp 28
  std::vector<int64_t> got = runBlock(k, threads, 4 * 64);
  for (int64_t t = 0; t < threads; ++t) {
    CAPTURE(t);
    auto at = [&](int row) { return got[static_cast<size_t>(row * 64 + t)]; };
    int64_t b8 = t - t % 8, b32 = t - t % 32, ballot8 = 0, ballot32 = 0;
    bool any8 = false, all8 = true;
    for (int64_t j = 0; j < 8 && b8 + j < threads; ++j) {
      if ((b8 + j) % 3 == 0)
        ballot8 |= int64_t{1} << j;
      any8 |= b8 + j == 13;
      all8 &= b8 + j != 18;
    }
    for (int64_t j = 0; j < 32 && b32 + j < threads; ++j)
      if ((b32 + j) % 5 == 1)
        ballot32 |= int64_t{1} << j;
    CHECK(at(0) == ballot8);
    CHECK(at(1) == (any8 ? 1 : 0) + 2 * (all8 ? 1 : 0));
    CHECK(at(2) == static_cast<int32_t>(static_cast<uint32_t>(ballot32)));
    CHECK(at(3) == 1);
  }
}

TEST_CASE("a tile of more than 32 threads is unsupported, with the reason") {
  Kernel k = one(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = t.shfl_down((int)threadIdx.x, 1);
}
)");
  auto u = stmts(k, StmtKind::Unsupported);
  REQUIRE(!u.empty());
  CHECK(u[0]->text.find("thread_block_tile of 64 threads") != std::string::npos);
}
