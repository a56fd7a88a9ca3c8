// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
// KernelBench 1: square matmul, one thread per element of C, a loop over k.
// N * N <= 2^31 - 1 (assumed), so every index fits an int.
__global__ void kb01_square_matmul(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
