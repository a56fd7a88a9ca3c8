// ksynth:spec matmul expect=equivalence
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
// Buggy twin of matmul: the reduction stops one term early.
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k + 1 < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
