// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16, BATCH) block=(16, 16)
// KernelBench 3: batched matmul, one thread per element of C, the batch on blockIdx.z, a loop over k.
// BATCH M K, BATCH K N and BATCH M N are at most 2^31 - 1 (assumed), so every index fits an int;
// M <= 1048560 and BATCH <= 65535 (assumed) keep gridDim.y and gridDim.z <= 65535.
__global__ void kb03_batched_matmul(const float *A, const float *B, float *C, int BATCH, int M, int K, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[(b * M + row) * K + k] * B[(b * K + k) * N + col];
    C[(b * M + row) * N + col] = acc;
  }
}
