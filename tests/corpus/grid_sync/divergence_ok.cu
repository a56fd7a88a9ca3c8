// expect: proven
// args: --block 32 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: a block barrier under a condition on blockIdx is uniform within each block
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *a) {
  __requires(__len(a) >= 128);
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0)
    b.sync();
  a[i] = 1;
}
