// ksynth:spec vec_add expect=coverage
// ksynth:launch grid=(N / 256) block=(256)
// Buggy twin of vec_add: the grid rounds down, so the last N % 256 elements are never written
// (right whenever N is a multiple of 256, stale output otherwise).
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = A[i] + B[i];
}
