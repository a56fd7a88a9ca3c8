// expect: refuted align
// args: --block 32
// note: the twin of bf16_row_pairs_ok.cu tests C % 2 on the wrong variable (R): with C = 3 row 1 starts 6 bytes in, so its __nv_bfloat162 view faults
#include <cuda_bf16.h>
__global__ void row_sum2(const __nv_bfloat16 *X, float *Y, int R, int C) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 1024 && C <= 1024 && __len(X) >= R * C && __len(Y) >= R * blockDim.x);
  int r = blockIdx.x;
  if (r >= R)
    return;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  if (R % 2 == 0) {
    const __nv_bfloat162 *row2 = reinterpret_cast<const __nv_bfloat162 *>(row);
    for (int c = threadIdx.x; c < C / 2; c += blockDim.x) {
      float2 v = __bfloat1622float2(row2[c]);
      acc += v.x + v.y;
    }
  } else {
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      acc += __bfloat162float(row[c]);
  }
  Y[r * blockDim.x + threadIdx.x] = acc;
}
