// ksynth:spec copy2d expect=coverage
// Found by review: a loop whose test (k > 0) fails at once; its later iterations must not count as storing.
// ksynth:launch grid=((N + 127) / 128, 2) block=(128)
// Blocks with blockIdx.y = 0, 1 store rows 0 and 1; the loop meant for rows >= 2 never runs
// (its test k > 0 fails at k = 0), so rows >= 2 are never stored.
__global__ void for_gt0(const float *A, float *B, int K, int N) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (n < N) {
    if (y < K)
      B[y * N + n] = A[y * N + n];
    if (y == 0)
      for (int k = 0; k < K && k > 0; ++k)
        if (k >= 2)
          B[k * N + n] = A[k * N + n];
  }
}
