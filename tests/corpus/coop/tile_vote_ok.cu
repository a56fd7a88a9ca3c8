// expect: proven
// args: --block 96
// note: each 8-thread tile votes on its inputs (ballot, any, all); rank 0 of each tile writes the tile's mask and flags (twelve tiles per block)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_votes(const float *x, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= 96 * gridDim.x && __len(out) >= 12 * gridDim.x);
  cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
  float v = x[blockIdx.x * 96 + threadIdx.x];
  unsigned mask = t.ballot(v > 0.0f);
  int flags = t.any(v < 0.0f) + 2 * t.all(v != 0.0f);
  if (t.thread_rank() == 0)
    out[blockIdx.x * 12 + t.meta_group_rank()] = (float)mask + 256.0f * (float)flags;
}
