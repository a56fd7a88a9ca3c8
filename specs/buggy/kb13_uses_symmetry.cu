// ksynth:spec kernelbench/13_matmul_symmetric expect=equivalence
// Buggy twin of kb13_matmul_symmetric: reads B[j][k] for B[k][j] (coalesced, and equal for a symmetric B),
// but forward is a plain matmul of any A, B: this computes A B^T.
// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
__global__ void kb13_matmul_symmetric(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[col * N + k];
    C[row * N + col] = acc;
  }
}
