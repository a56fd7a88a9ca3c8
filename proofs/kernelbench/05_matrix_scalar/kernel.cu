// ksynth:launch grid=((M * N + 255) / 256) block=(256)
// One thread per element of the row-major (M, N) matrix, walked flat.
__global__ void kb05_matrix_scalar(const float *A, float *C, float s, int M, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < M * N)
    C[idx] = A[idx] * s;
}
