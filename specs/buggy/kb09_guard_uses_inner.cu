// ksynth:spec kernelbench/09_tall_skinny_matmul expect=coverage
// Buggy twin of kb09_tall_skinny_matmul: the column guard is copied from an M x N product
// (col < N), but C is M x M: its columns N..M-1 are never written.
// ksynth:launch grid=((M + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb09_tall_skinny_matmul(const float *A, const float *B, float *C, int M, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[k * M + col];
    C[row * M + col] = acc;
  }
}
