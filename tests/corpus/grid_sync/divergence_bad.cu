// expect: refuted barrier
// args: --block 32 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: only block 0 reaches the grid barrier; blocks 1..3 never do
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *a) {
  __requires(__len(a) >= 128);
  cg::grid_group g = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0)
    g.sync();
  a[i] = 1;
}
