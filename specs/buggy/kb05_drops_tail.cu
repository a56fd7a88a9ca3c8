// ksynth:spec kernelbench/05_matrix_scalar expect=coverage
// ksynth:launch grid=(M * N / 256) block=(256)
// Bug: the grid is rounded down (M N / 256 blocks), so the last M N mod 256 elements are never written.
// One thread per element of the row-major (M, N) matrix, walked flat.
__global__ void kb05_matrix_scalar(const float *A, float *C, float s, int M, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < M * N)
    C[idx] = A[idx] * s;
}
