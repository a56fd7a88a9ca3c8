// expect: proven
// args: --block 64
// note: a tile of 8 threads swaps values through shared memory; tile.sync() (a __syncwarp()) orders each store before its neighbour's read, and a second one before the cell is reused
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
  tile.sync();
  s[threadIdx.x] = v ^ 1;
  tile.sync();
  out[i] = s[threadIdx.x ^ 1];
}
