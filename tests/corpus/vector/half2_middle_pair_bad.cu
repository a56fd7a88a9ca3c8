// expect: refuted align
// args: --block 256
// note: each thread's four halves as scalar, pair, scalar: the pair starts at element 4t + 1, 2 bytes past a 4-byte boundary, so its __half2 view faults (every element is still written once with the right sum)
#include <cuda_fp16.h>
__global__ void add_h(const __half *A, const __half *B, __half *C, int N) {
  __requires(gridDim.x <= 4096 && gridDim.y == 1 && gridDim.z == 1);
  __requires(N >= 0 && N <= 1000000 && __len(A) >= N && __len(B) >= N && __len(C) >= N);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    C[i] = __hadd(A[i], B[i]);
    *reinterpret_cast<__half2 *>(C + i + 1) =
        __hadd2(*reinterpret_cast<const __half2 *>(A + i + 1), *reinterpret_cast<const __half2 *>(B + i + 1));
    C[i + 3] = __hadd(A[i + 3], B[i + 3]);
  } else {
    for (int j = i; j < N; ++j)
      C[j] = __hadd(A[j], B[j]);
  }
}
