// ksynth:spec row_sum_bf16
// ksynth:launch grid=(R) block=(32)
#include <cuda_bf16.h>
// One warp per row, two bfloat16 per load where the row allows it (C even: every row starts
// 4-byte aligned): each lane widens a __nv_bfloat162 pair to floats and adds both; a row of
// odd length is read one element at a time. Then a shuffle tree; lane 0 writes.
__global__ void row_sum_bf16x2_warp(const __nv_bfloat16 *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  if (C % 2 == 0) {
    const __nv_bfloat162 *row2 = reinterpret_cast<const __nv_bfloat162 *>(row);
    for (int c = lane; c < C / 2; c += 32) {
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
