// ksynth:spec kernelbench/17_matmul_transposed_b expect=equivalence
// Buggy twin of kb17_matmul_transposed_b: B is read as if it were K x N (B[k][col] = B[k * N + col]),
// i.e. A B instead of A B^T; the index stays in bounds.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb17_matmul_transposed_b(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
