// ksynth:spec kernelbench/16_matmul_transposed_a expect=equivalence
// Buggy twin of kb16_matmul_transposed_a: A is read as if it were M x K (A[row][k] = A[row * K + k]),
// the layout forward's docstring states, not the K x M tensor it is given; the index stays in bounds.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb16_matmul_transposed_a(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
