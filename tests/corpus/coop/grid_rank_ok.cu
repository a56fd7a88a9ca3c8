// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: a grid-stride loop over cooperative groups' grid rank and size: thread r of the grid
// note: touches r, r + size, r + 2 size ..., so no two threads share an element
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void scale(float *x, unsigned long long n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(n <= 1ull << 40);
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    x[i] = 2.0f * x[i];
}
