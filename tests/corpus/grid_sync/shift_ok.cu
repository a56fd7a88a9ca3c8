// expect: proven
// args: --block 32 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: every thread reads its right neighbour (maybe in the next block), then a grid-wide
// barrier, then writes its own element
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *a) {
  __requires(__len(a) >= 129);
  cg::grid_group g = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i + 1];
  g.sync();
  a[i] = v;
}
