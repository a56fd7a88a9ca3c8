// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the tiles have 16 threads: cg::reduce sums half a warp, and thread 0 writes the sum of lanes 0..15 only.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void row_sum_cg16(const float *X, float *Y, int R, int C) {
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  int r = blockIdx.x;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += 32)
    acc += X[r * C + c];
  acc = cg::reduce(t, acc, cg::plus<float>());
  if (threadIdx.x == 0)
    Y[r] = acc;
}
