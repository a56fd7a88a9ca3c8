// expect: proven
// args: --block 32
// note: rows of bfloat16 read as __nv_bfloat162 pairs only when C is even (each row then starts on a 4-byte boundary), element by element otherwise
#include <cuda_bf16.h>
__global__ void row_sum2(const __nv_bfloat16 *X, float *Y, int R, int C) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 1024 && C <= 1024 && __len(X) >= R * C && __len(Y) >= R * blockDim.x);
  int r = blockIdx.x;
  if (r >= R)
    return;
  const __nv_bfloat16 *row = X + r * C;
  float acc = 0.0f;
  if (C % 2 == 0) {
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
