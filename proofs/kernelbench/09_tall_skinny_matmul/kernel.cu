// ksynth:launch grid=((M + 15) / 16, (M + 15) / 16) block=(16, 16)
// KernelBench 9: an M x M product of inner size N, one thread per element of C, a loop over k.
// M M and M N are at most 2^31 - 1 (assumed), so every index fits an int.
__global__ void kb09_tall_skinny_matmul(const float *A, const float *B, float *C, int M, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < M) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[k * M + col];
    C[row * M + col] = acc;
  }
}
