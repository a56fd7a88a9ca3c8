// ksynth:spec kernelbench/08_matmul_irregular expect=coverage
// Buggy twin of kb08_matmul_irregular: the grid is N / 16 by M / 16 (rounded down), so for
// shapes that are not multiples of 16 the last partial tiles of C are never computed.
// ksynth:launch grid=(N / 16, M / 16) block=(16, 16)
__global__ void kb08_matmul_irregular(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
