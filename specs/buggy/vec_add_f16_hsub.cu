// ksynth:spec vec_add_f16 expect=equivalence
// Buggy twin of vec_add_f16: __hsub where __hadd was meant.
// ksynth:launch grid=((N + 255) / 256) block=(256)
#include <cuda_fp16.h>
__global__ void vec_add_f16(const __half *A, const __half *B, __half *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = __hsub(A[i], B[i]);
}
