// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
// KernelBench 2 (2_Standard_matrix_multiplication_.py): one thread per element of C, a loop over k.
// M K, K N and M N are at most 2^31 - 1 (assumed), so every index fits an int;
// M <= 1048560 (assumed) keeps gridDim.y <= 65535.
__global__ void kb02_standard_matmul(const float *A, const float *B, float *C, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
