// ksynth:spec kernelbench/03_batched_matmul expect=equivalence
// Buggy twin of kb03_batched_matmul: B's batch offset is left out, so every batch multiplies by B[0]
// (as if B were broadcast, torch.matmul with a 2-D B).
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16, BATCH) block=(16, 16)
__global__ void kb03_batched_matmul(const float *A, const float *B, float *C, int BATCH, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[(b * M + row) * K + k] * B[k * N + col];
    C[(b * M + row) * N + col] = acc;
  }
}
