// expect: refuted race
// args: --block 128 --grid 4 --checks race,barrier,bounds,warp
// note: the twin of meta_group_rows_ok: a block steps over one warp fewer than it has (4 - 1
// note: rows), so the last warp of a block and the first of the next share a row
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
__global__ void rowMax(float *out, const float *in, int rows, int C) {
  __requires(rows >= 1 && rows <= 4096 && C >= 1 && C <= 4096 && __len(out) >= rows && __len(in) >= rows * C);
  namespace cg = cooperative_groups;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int row = blockIdx.x * (warp.meta_group_size() - 1) + warp.meta_group_rank();
  if (row >= rows)
    return;
  float m = -1e30f;
  for (int c = warp.thread_rank(); c < C; c += 32)
    m = fmaxf(m, in[row * C + c]);
  m = cg::reduce(warp, m, cg::greater<float>());
  if (warp.thread_rank() == 0)
    out[row] = m;
}
