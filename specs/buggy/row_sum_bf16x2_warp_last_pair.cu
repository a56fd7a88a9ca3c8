// ksynth:spec row_sum_bf16 expect=equivalence
// ksynth:launch grid=(R) block=(32)
#include <cuda_bf16.h>
// Bug: where C is even the pair loop stops one pair short: the row's last two elements are
// never added.
__global__ void row_sum_bf16x2_warp(const __nv_bfloat16 *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  if (C % 2 == 0) {
    const __nv_bfloat162 *row2 = reinterpret_cast<const __nv_bfloat162 *>(row);
    for (int c = lane; c < C / 2 - 1; c += 32) {
      __nv_bfloat162 v = row2[c];
      acc += __bfloat162float(v.x) + __bfloat162float(v.y);
    }
  } else {
    for (int c = lane; c < C; c += 32)
      acc += __bfloat162float(row[c]);
  }
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
