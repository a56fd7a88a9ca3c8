#include <cuda_fp16.h>
// ksynth:launch grid=((N + 255) / 256) block=(256)
// One thread per element; the sum in half precision (__hadd).
__global__ void vec_add_f16(const __half *A, const __half *B, __half *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = __hadd(A[i], B[i]);
}
