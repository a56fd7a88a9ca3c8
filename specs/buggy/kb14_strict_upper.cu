// ksynth:spec kernelbench/14_matmul_upper_triangular expect=equivalence
// Buggy twin of kb14_matmul_upper_triangular: the mask is strict (col > row), so the diagonal is
// zeroed; torch.triu keeps it.
// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
__global__ void kb14_matmul_upper_triangular(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    float acc = 0.0f;
    if (col > row)
      for (int k = 0; k < N; ++k)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
