// expect: proven
// args: --block 256
// note: the twin of half2_middle_pair_bad.cu: pair, pair at elements 4t and 4t + 2, both on 4-byte boundaries
#include <cuda_fp16.h>
__global__ void add_h(const __half *A, const __half *B, __half *C, int N) {
  __requires(gridDim.x <= 4096 && gridDim.y == 1 && gridDim.z == 1);
  __requires(N >= 0 && N <= 1000000 && __len(A) >= N && __len(B) >= N && __len(C) >= N);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    *reinterpret_cast<__half2 *>(C + i) =
        __hadd2(*reinterpret_cast<const __half2 *>(A + i), *reinterpret_cast<const __half2 *>(B + i));
    *reinterpret_cast<__half2 *>(C + i + 2) =
        __hadd2(*reinterpret_cast<const __half2 *>(A + i + 2), *reinterpret_cast<const __half2 *>(B + i + 2));
  } else {
    for (int j = i; j < N; ++j)
      C[j] = __hadd(A[j], B[j]);
  }
}
