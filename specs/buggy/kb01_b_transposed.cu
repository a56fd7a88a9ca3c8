// ksynth:spec kernelbench/01_square_matmul expect=equivalence
// Buggy twin of kb01_square_matmul: B is read as B[j][k] (column-major B), i.e. it computes A B^T.
// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
__global__ void kb01_square_matmul(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[col * N + k];
    C[row * N + col] = acc;
  }
}
