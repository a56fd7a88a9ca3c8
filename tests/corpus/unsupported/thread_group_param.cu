// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds
// note: a cg::thread_group (a block or a tile, known only at run time) passed to a device
// note: function: declared so the file parses, not modelled, so unknown naming the call
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ int groupSum(thread_group g, int *x, int v) {
  int lane = g.thread_rank();
  x[lane] = v;
  g.sync();
  return lane == 0 ? x[0] + x[1] : 0;
}
__global__ void sums(int *out) {
  __requires(__len(out) >= 1);
  __shared__ int ws[64];
  int s = groupSum(this_thread_block(), ws, threadIdx.x);
  if (threadIdx.x == 0)
    out[0] = s;
}
