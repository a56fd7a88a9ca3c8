// ksynth:spec row_sum_bf16
// ksynth:launch grid=(R) block=(32)
#include <cuda_bf16.h>
// One warp per row: half the bytes of the f32 row_sum_warp per element. Each lane widens
// its bfloat16 elements to float and sums them in float, then a shuffle tree; lane 0 writes.
__global__ void row_sum_bf16_warp(const __nv_bfloat16 *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += __bfloat162float(__ldg(row + c));
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
