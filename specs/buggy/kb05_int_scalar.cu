// ksynth:spec kernelbench/05_matrix_scalar expect=equivalence
// ksynth:launch grid=((M * N + 255) / 256) block=(256)
// Bug: the scalar is truncated to an int (3.14 becomes 3), as when s is declared int.
// One thread per element of the row-major (M, N) matrix, walked flat.
__global__ void kb05_matrix_scalar(const float *A, float *C, float s, int M, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < M * N)
    C[idx] = A[idx] * (float)(int)s;
}
