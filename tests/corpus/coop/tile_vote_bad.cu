// expect: refuted race
// args: --block 96
// note: twin of tile_vote_ok.cu: the tile's cell is meta_group_rank() / 2, so rank 0 of tile 0 (thread 0) and rank 0 of tile 1 (thread 8) both write out[0], whatever x holds
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
    out[blockIdx.x * 12 + t.meta_group_rank() / 2] = (float)mask + 256.0f * (float)flags;
}
