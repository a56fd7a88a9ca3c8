// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
// KernelBench 14: triu(A B), one thread per element of C: the full dot product on and above the
// diagonal; below it the loop runs no times and the element is 0. N * N <= 2^31 - 1 (assumed),
// so every index fits an int.
__global__ void kb14_matmul_upper_triangular(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    int kend = col >= row ? N : 0;
    float acc = 0.0f;
    for (int k = 0; k < kend; ++k)
      acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
