// expect: proven
// args: --block 96
// note: cg::reduce over tiles of 16: every thread of a tile gets the tile's sum; rank 0 of each tile writes it (three warps, six tiles per block)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void tile_sums(const float *x, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= 96 * gridDim.x && __len(out) >= 6 * gridDim.x);
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  float v = cg::reduce(t, x[blockIdx.x * 96 + threadIdx.x], cg::plus<float>());
  if (t.thread_rank() == 0)
    out[blockIdx.x * 6 + t.meta_group_rank()] = v;
}
