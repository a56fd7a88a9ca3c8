// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
// Naive product of half matrices: one thread per element of C, f32 accumulation over K.
#include <cuda_fp16.h>
__global__ void matmul_f16(const __half *A, const __half *B, float *C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
    C[row * N + col] = acc;
  }
}
