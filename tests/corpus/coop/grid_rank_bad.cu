// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the stride is one block (blockDim.x) instead of the grid: with two blocks of 256 threads,
// note: thread 0 of block 0 reaches element 256, where thread 0 of block 1 starts (n = 4096)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void scale(float *x, unsigned long long n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(n <= 1ull << 40);
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += blockDim.x)
    x[i] = 2.0f * x[i];
}
