// ksynth:launch grid=((M + 15) / 16, (M + 15) / 16) block=(16, 16)
// KernelBench 15: tril(A B), one thread per element of C: the full dot product on and below the
// diagonal; above it the loop runs no times and the element is 0. M * M <= 2^31 - 1 (assumed),
// so every index fits an int.
__global__ void kb15_matmul_lower_triangular(const float *A, const float *B, float *C, int M) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < M) {
    int kend = col <= row ? M : 0;
    float acc = 0.0f;
    for (int k = 0; k < kend; ++k)
      acc += A[row * M + k] * B[k * M + col];
    C[row * M + col] = acc;
  }
}
