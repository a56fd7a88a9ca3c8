// ksynth:spec kernelbench/14_matmul_upper_triangular expect=equivalence
// Buggy twin of kb14_matmul_upper_triangular: sums only k in [i, j], which is right for upper
// triangular A and B (as KernelBench generates them) but forward multiplies any A and B.
// ksynth:launch grid=((N + 15) / 16, (N + 15) / 16) block=(16, 16)
__global__ void kb14_matmul_upper_triangular(const float *A, const float *B, float *C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) {
    float acc = 0.0f;
    for (int k = row; k <= col; ++k)
      acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
