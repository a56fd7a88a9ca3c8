// ksynth:spec kernelbench/07_matmul_small_k expect=equivalence
// Buggy twin of kb07_matmul_small_k: the first term is peeled into the accumulator's start,
// but the loop still starts at k = 0, so the term k = 0 is added twice.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb07_matmul_small_k(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = A[row * K] * B[col];
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
