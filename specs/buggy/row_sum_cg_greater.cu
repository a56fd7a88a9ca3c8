// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: cg::greater in place of cg::plus: the reduction keeps the largest lane sum.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void row_sum_cg(const float *X, float *Y, int R, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int r = blockIdx.x;
  float acc = 0.0f;
  for (int c = warp.thread_rank(); c < C; c += 32)
    acc += X[r * C + c];
  acc = cg::reduce(warp, acc, cg::greater<float>());
  if (warp.thread_rank() == 0)
    Y[r] = acc;
}
