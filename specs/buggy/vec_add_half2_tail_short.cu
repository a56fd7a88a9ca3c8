// ksynth:spec vec_add_f16 expect=coverage
// Buggy twin of fast/vec_add_half2: the scalar tail stops one element early, so the last
// element is never written when N % 4 != 0.
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
#include <cuda_fp16.h>
__global__ void vec_add_half2(const __half *A, const __half *B, __half *C, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    const __half2 *a2 = reinterpret_cast<const __half2 *>(A + i);
    const __half2 *b2 = reinterpret_cast<const __half2 *>(B + i);
    __half2 *c2 = reinterpret_cast<__half2 *>(C + i);
    c2[0] = __hadd2(a2[0], b2[0]);
    c2[1] = __hadd2(a2[1], b2[1]);
  } else {
    for (int j = i; j < N - 1; ++j)
      C[j] = __hadd(A[j], B[j]);
  }
}
