// ksynth:spec kernelbench/10_3d_tensor_matmul expect=coverage
// Buggy twin of kb10_3d_tensor_matmul: the store leaves out the leading dim's offset, so every
// n writes into C[0] and C[1..N-1] are never written.
// ksynth:launch grid=((L + 15) / 16, (M + 15) / 16, N) block=(16, 16)
__global__ void kb10_3d_tensor_matmul(const float *A, const float *B, float *C, int N, int M, int K, int L) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (row < M && col < L) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[(n * M + row) * K + k] * B[k * L + col];
    C[row * L + col] = acc;
  }
}
