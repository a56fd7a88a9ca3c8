// expect: refuted race
// args: --block 64
// note: twin of tile_sync_ok.cu without the tile.sync() between the read of the neighbour's cell and the store that reuses it
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void swap_pairs(const int *in, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 64 * gridDim.x && __len(out) >= 64 * gridDim.x);
  __shared__ int s[64];
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * 64 + threadIdx.x;
  s[threadIdx.x] = in[i];
  tile.sync();
  int v = s[threadIdx.x ^ 1];
  s[threadIdx.x] = v ^ 1;
  tile.sync();
  out[i] = s[threadIdx.x ^ 1];
}
