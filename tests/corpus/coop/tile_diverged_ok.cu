// expect: proven
// args: --block 32
// note: every lane shuffles; ranks 4..7 then keep their own value
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void partial(const int *in, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 32 * gridDim.x && __len(out) >= 32 * gridDim.x);
  auto t = cg::tiled_partition<8>(cg::this_thread_block());
  int i = blockIdx.x * 32 + threadIdx.x;
  int v = in[i];
  int w = t.shfl_down(v, 1);
  if (t.thread_rank() < 4)
    v = w;
  out[i] = v;
}
