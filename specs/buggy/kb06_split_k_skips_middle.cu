// ksynth:spec kernelbench/06_matmul_large_k expect=equivalence
// Buggy twin of kb06_matmul_large_k: the long reduction is split in two halves, the second
// starting one past the middle (k = K / 2 + 1), so the term k = K / 2 is never added.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb06_matmul_large_k(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    int half = K / 2;
    float lo = 0.0f, hi = 0.0f;
    for (int k = 0; k < half; ++k)
      lo += A[row * K + k] * B[k * N + col];
    for (int k = half + 1; k < K; ++k)
      hi += A[row * K + k] * B[k * N + col];
    C[row * N + col] = lo + hi;
  }
}
