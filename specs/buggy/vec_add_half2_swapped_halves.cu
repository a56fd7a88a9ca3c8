// ksynth:spec vec_add_f16 expect=equivalence
// Buggy twin of fast/vec_add_half2: the second pair's halves are swapped before the store
// (__lowhigh2highlow), so C[i + 2] and C[i + 3] receive each other's sums.
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
#include <cuda_fp16.h>
__global__ void vec_add_half2(const __half *A, const __half *B, __half *C, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    const __half2 *a2 = reinterpret_cast<const __half2 *>(A + i);
    const __half2 *b2 = reinterpret_cast<const __half2 *>(B + i);
    __half2 *c2 = reinterpret_cast<__half2 *>(C + i);
    c2[0] = __hadd2(a2[0], b2[0]);
    c2[1] = __lowhigh2highlow(__hadd2(a2[1], b2[1]));
  } else {
    for (int j = i; j < N; ++j)
      C[j] = __hadd(A[j], B[j]);
  }
}
