// Tensor-core fragments (nvcuda::wmma): what a call lowers to (warp barrier, whole-warp and
// uniform obligations, alignment, the lane's share of the accesses), and what the lowered code
// computes when the interpreter runs a warp: exact 16 x 16 x 16 products in each layout.
#include "frontend_support.h"
#include "run_block.h"

#include "verify/interp/interp.h"

#include <string>

using namespace ksynth::ir;
using namespace ksynth::frontend::test;

namespace {

// A 16 x 16 x 16 product in one warp: A(i, k) = i + 2k - 5 and B(k, j) = 3k - j + 1 (small
// integers, exact in half), staged in shared memory in the layouts given, C stored to `out`.
std::string product(const char *layA, const char *layB, const char *layC) {
  // Element (r, c) of each logical matrix, at its place in memory for the layout.
  auto at = [](const char *lay) { return std::string(lay) == std::string("row_major") ? "r * 16 + c" : "c * 16 + r"; };
  return std::string(R"(
#include <mma.h>
using namespace nvcuda;
__global__ void k(float *out) {
  __shared__ __align__(32) half As[256];
  __shared__ __align__(32) half Bs[256];
  for (int e = threadIdx.x; e < 256; e += 32) {
    int r = e / 16, c = e % 16;
    As[)") + at(layA) + R"(] = __float2half((float)(r + 2 * c - 5));
    Bs[)" + at(layB) + R"(] = __float2half((float)(3 * r - c + 1));
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::)" +
         layA + R"(> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::)" +
         layB + R"(> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, As, 16);
  wmma::load_matrix_sync(fb, Bs, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(out, acc, 16, wmma::)" +
         layC + R"();
}
)";
}

} // namespace

TEST_CASE("a WMMA load is the lane's share of the tile, after a warp barrier, with its warp obligations") {
  Kernel k = one(R"(
#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, float *out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::load_matrix_sync(fa, a, 16);
}
)");
  CHECK(stmts(k, StmtKind::Unsupported).empty());
  auto loads = stmts(k, StmtKind::Load);
  REQUIRE(loads.size() == 128); // 8 rows of 16: the rows the lane's accumulator elements need
  for (const Stmt *l : loads)
    CHECK(l->warpCollective);
  auto barriers = stmts(k, StmtKind::Barrier);
  REQUIRE(barriers.size() == 1);
  CHECK(barriers[0]->barrier == BarrierKind::Warp);
  int uniform = 0, align = 0, warp = 0;
  for (const Stmt *s : stmts(k, StmtKind::Assert)) {
    uniform += s->assertKind == AssertKind::Uniform;
    align += s->assertKind == AssertKind::Align;
    warp += s->assertKind == AssertKind::Warp;
  }
  CHECK(uniform == 2); // pointer and leading dimension
  CHECK(align == 2);   // 32-byte pointer, ldm a multiple of 16 bytes
  CHECK(warp == 1);    // a whole warp
}

TEST_CASE("WMMA products in every layout equal the exact product, element by element") {
  for (const char *la : {"row_major", "col_major"})
    for (const char *lb : {"row_major", "col_major"})
      for (const char *lc : {"mem_row_major", "mem_col_major"}) {
        CAPTURE(la);
        CAPTURE(lb);
        CAPTURE(lc);
        Kernel k = one(product(la, lb, lc));
        REQUIRE(stmts(k, StmtKind::Unsupported).empty());
        int out = -1;
        ksynth::interp::GridRun run = runOneBlock(k, 32, 256, out);
        CHECK(run.faults.empty());
        int wrong = 0;
        for (int i = 0; i < 16; ++i)
          for (int j = 0; j < 16; ++j) {
            double want = 0;
            for (int kk = 0; kk < 16; ++kk)
              want += (i + 2 * kk - 5) * (3 * kk - j + 1);
            int cell = std::string(lc) == "mem_row_major" ? i * 16 + j : j * 16 + i;
            auto it = run.memory.find({out, cell});
            wrong += it == run.memory.end() || it->second.f != want;
          }
        CHECK(wrong == 0);
      }
}

TEST_CASE("a WMMA pointer that differs between lanes faults when the warp runs") {
  Kernel k = one(R"(
#include <mma.h>
using namespace nvcuda;
__global__ void k(float *out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::store_matrix_sync(out + (threadIdx.x % 2) * 256, acc, 16, wmma::mem_row_major);
}
)");
  int out = -1;
  ksynth::interp::GridRun run = runOneBlock(k, 32, 512, out);
  REQUIRE(!run.faults.empty());
  CHECK(run.faults[0].event.kind == ksynth::interp::EventKind::Uniform);
}

TEST_CASE("WMMA shapes, element types and uses ksynth does not model are unsupported, with the reason") {
  struct Case {
    const char *decl, *why;
  };
  for (const Case &c : {Case{"wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> f;", "m8n32k16"},
                        Case{"wmma::fragment<wmma::accumulator, 16, 16, 16, half> f;", "float accumulators"},
                        Case{"wmma::fragment<wmma::accumulator, 16, 16, 16, float> f[2];", "array of WMMA fragments"}}) {
    CAPTURE(c.decl);
    Kernel k = one(std::string("#include <mma.h>\nusing namespace nvcuda;\n__global__ void k(float *out) {\n  ") +
                   c.decl + "\n}\n");
    auto u = stmts(k, StmtKind::Unsupported);
    REQUIRE(u.size() == 1);
    CHECK(u[0]->text.find(c.why) != std::string::npos);
  }
}

TEST_CASE("a fragment initialised from another of its type is a copy; from anything else it is unsupported") {
  Kernel k = one(R"(
#include <mma.h>
using namespace nvcuda;
__global__ void k(float *out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 2.5f);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> copy = acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::store_matrix_sync(out, copy, 16, wmma::mem_row_major);
}
)");
  REQUIRE(stmts(k, StmtKind::Unsupported).empty());
  int out = -1;
  ksynth::interp::GridRun run = runOneBlock(k, 32, 256, out);
  int wrong = 0;
  for (int c = 0; c < 256; ++c) {
    auto it = run.memory.find({out, c});
    wrong += it == run.memory.end() || it->second.f != 2.5;
  }
  CHECK(wrong == 0);
  Kernel bad = one(R"(
#include <mma.h>
using namespace nvcuda;
__global__ void k(float *out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> b = *reinterpret_cast<wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> *>(&a);
}
)");
  int refused = 0;
  for (const Stmt *u : stmts(bad, StmtKind::Unsupported))
    refused += u->text.find("initialised from") != std::string::npos;
  CHECK(refused == 1);
}
