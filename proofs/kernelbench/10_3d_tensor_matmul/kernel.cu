// ksynth:launch grid=((L + 15) / 16, (M + 15) / 16, N) block=(16, 16)
// KernelBench 10: one thread per element of C, the leading dim n on blockIdx.z, a loop over k.
// N M K, K L and N M L are at most 2^31 - 1 (assumed), so every index fits an int;
// M <= 1048560 and N <= 65535 (assumed) keep gridDim.y and gridDim.z <= 65535.
__global__ void kb10_3d_tensor_matmul(const float *A, const float *B, float *C, int N, int M, int K, int L) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (row < M && col < L) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[(n * M + row) * K + k] * B[k * L + col];
    C[(n * M + row) * L + col] = acc;
  }
}
