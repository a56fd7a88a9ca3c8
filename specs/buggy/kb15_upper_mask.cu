// ksynth:spec kernelbench/15_matmul_lower_triangular expect=equivalence
// Buggy twin of kb15_matmul_lower_triangular: the mask is triu's (col >= row) where tril keeps
// col <= row: it computes the upper triangle and zeroes the lower.
// ksynth:launch grid=((M + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb15_matmul_lower_triangular(const float *A, const float *B, float *C, int M) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < M) {
    int kend = col >= row ? M : 0;
    float acc = 0.0f;
    for (int k = 0; k < kend; ++k)
      acc += A[row * M + k] * B[k * M + col];
    C[row * M + col] = acc;
  }
}
