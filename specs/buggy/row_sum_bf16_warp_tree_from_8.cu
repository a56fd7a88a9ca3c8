// ksynth:spec row_sum_bf16 expect=equivalence
// Buggy twin of fast/row_sum_bf16_warp: the shuffle tree starts at offset 8, so lane 0 adds
// only lanes 0..15 and the sums of lanes 16..31 are lost.
// ksynth:launch grid=(R) block=(32)
#include <cuda_bf16.h>
__global__ void row_sum_bf16_warp(const __nv_bfloat16 *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += __bfloat162float(row[c]);
  for (int off = 8; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
