#include <cuda_bf16.h>
// ksynth:launch grid=((R + 127) / 128) block=(128)
// One thread per row; each bfloat16 element widened to float and summed in float.
__global__ void row_sum_bf16(const __nv_bfloat16 *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
      acc += __bfloat162float(X[r * C + c]);
    Y[r] = acc;
  }
}
