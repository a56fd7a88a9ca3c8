// expect: refuted race
// args: --block 96
// note: twin of tile_reduce_ok.cu where every thread of a tile writes the tile's sum: the same value, but sixteen stores to one cell race
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void tile_sums(const float *x, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= 96 * gridDim.x && __len(out) >= 6 * gridDim.x);
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  float v = cg::reduce(t, x[blockIdx.x * 96 + threadIdx.x], cg::plus<float>());
  out[blockIdx.x * 6 + t.meta_group_rank()] = v;
}
