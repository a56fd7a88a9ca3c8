// ksynth:spec kernelbench/18_matmul_transposed_both expect=equivalence
// Buggy twin of kb18_matmul_transposed_both: only A is transposed: B is read as K x N (B[k * N + col]),
// i.e. A^T B instead of A^T B^T; the index stays in bounds.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb18_matmul_transposed_both(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[k * M + row] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
