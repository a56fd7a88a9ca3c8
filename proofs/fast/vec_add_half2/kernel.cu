// ksynth:spec vec_add_f16
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
#include <cuda_fp16.h>
// Four halves per thread: two __half2 loads per operand (32-bit accesses; __hadd2 adds both
// halves in one instruction), a scalar tail for the last N % 4 elements.
__global__ void vec_add_half2(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C,
                              int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    const __half2 *a2 = reinterpret_cast<const __half2 *>(A + i);
    const __half2 *b2 = reinterpret_cast<const __half2 *>(B + i);
    __half2 *c2 = reinterpret_cast<__half2 *>(C + i);
    c2[0] = __hadd2(__ldg(a2), __ldg(b2));
    c2[1] = __hadd2(__ldg(a2 + 1), __ldg(b2 + 1));
  } else {
    for (int j = i; j < N; ++j)
      C[j] = __hadd(A[j], B[j]);
  }
}
