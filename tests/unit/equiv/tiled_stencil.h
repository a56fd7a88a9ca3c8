// A two-point stencil over a shared tile that a block of 32 x 8 threads loads cooperatively
// with its halo (cell t of the sweep at row t / cols, column t % cols of a 10 x 34 tile), and
// its spec: used by the prover's tests (prove_test.cpp) and the concrete tests' sizes
// (grid_run_test.cpp). With cols = 34 it is right; with 33, column 33, the right neighbour of
// each block's last output column, is never written.
#pragma once

#include <string>

namespace ksynth::test {

inline const char *kTiledStencilSpec = R"((spec st (dims H W) (assume (>= H 3) (>= W 3) (<= H 8192) (<= W 8192))
  (tensor X f32 (H W) in) (tensor Y f32 ((- H 2) (- W 2)) out)
  (ensures (Y i j) (* 0.5 (+ (X (+ i 1) j) (X (+ i 1) (+ j 2)))))))";

// Launched with block (32, 8) and grid ((W + 29) / 32, (H + 5) / 8).
inline std::string tiledStencilKernel(int cols) {
  std::string c = std::to_string(cols);
  return R"(
__global__ void st(const float *X, float *Y, int H, int W) {
  __shared__ float tile[10][34];
  int bx = blockIdx.x * 32, by = blockIdx.y * 8;
  for (int t = threadIdx.y * 32 + threadIdx.x; t < 10 * )" + c + R"(; t += 256) {
    int r = t / )" + c + R"(, c = t % )" + c + R"(;
    tile[r][c] = by + r < H && bx + c < W ? X[(by + r) * W + bx + c] : 0.0f;
  }
  __syncthreads();
  int j = bx + threadIdx.x, i = by + threadIdx.y;
  if (i < H - 2 && j < W - 2)
    Y[i * (W - 2) + j] = 0.5f * (tile[threadIdx.y + 1][threadIdx.x] + tile[threadIdx.y + 1][threadIdx.x + 2]);
})";
}

} // namespace ksynth::test
