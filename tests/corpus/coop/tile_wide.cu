// expect: unknown
// args: --block 128
// note: a tile of 64 threads spans two warps; ksynth models tiles of at most 32 threads, and says so
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void wide(const int *in, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 128 * gridDim.x && __len(out) >= 128 * gridDim.x);
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  int i = blockIdx.x * 128 + threadIdx.x;
  out[i] = t.shfl_down(in[i], 1);
}
