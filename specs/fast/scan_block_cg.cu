// ksynth:spec scan_block
// ksynth:launch grid=(1) block=(256)
// scan_block_warp written with cooperative groups: the block as cg::this_thread_block(), its
// warps as thread_block_tile<32> tiles scanning by tile.shfl_up, tile.meta_group_rank() naming
// the warp's slot of totals and block.sync() the one barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void scan_block_cg(const float *X, float *Y, int N) {
  __shared__ float total[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int t = block.thread_rank(), lane = tile.thread_rank(), w = tile.meta_group_rank();
  float v = t < N ? X[t] : 0.0f;
#pragma unroll
  for (int d = 1; d < tile.size(); d *= 2) {
    float u = tile.shfl_up(v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    total[w] = v;
  block.sync();
  float before = 0.0f;
  for (int j = 0; j < w; ++j)
    before += total[j];
  if (t < N)
    Y[t] = before + v;
}
