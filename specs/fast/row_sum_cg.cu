// ksynth:spec row_sum
// ksynth:launch grid=(R) block=(32)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
// One warp per row as a cooperative-groups tile: lanes stride over the row, cg::reduce sums
// the tile (a shuffle butterfly), rank 0 writes.
__global__ void row_sum_cg(const float *X, float *Y, int R, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int r = blockIdx.x;
  float acc = 0.0f;
  for (int c = warp.thread_rank(); c < C; c += 32)
    acc += X[r * C + c];
  acc = cg::reduce(warp, acc, cg::plus<float>());
  if (warp.thread_rank() == 0)
    Y[r] = acc;
}
