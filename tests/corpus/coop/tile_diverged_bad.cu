// expect: refuted barrier
// args: --block 32
// note: twin of tile_diverged_ok.cu: the tile shuffles under a condition that differs between its lanes (ranks 0..3 only), so the other lanes of the warp never reach the exchange
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void partial(const int *in, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 32 * gridDim.x && __len(out) >= 32 * gridDim.x);
  auto t = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * 32 + threadIdx.x;
  int v = in[i];
  if (t.thread_rank() < 4)
    v = t.shfl_down(v, 1);
  out[i] = v;
}
