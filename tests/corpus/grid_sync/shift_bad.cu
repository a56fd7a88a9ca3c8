// expect: refuted race
// args: --block 32 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: a block barrier does not order blocks: thread 31 of block 0 reads a[32] while
// thread 0 of block 1 writes it
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *a) {
  __requires(__len(a) >= 129);
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i + 1];
  b.sync();
  a[i] = v;
}
