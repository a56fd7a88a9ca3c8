// ksynth:spec kernelbench/02_standard_matmul expect=equivalence
// Buggy twin of kb02_standard_matmul: C is stored column-major (C[j * M + i]), not row-major.
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
__global__ void kb02_standard_matmul(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[col * M + row] = acc;
  }
}
