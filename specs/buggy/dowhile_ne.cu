// ksynth:spec copy2d expect=coverage
// Found by review: a do-while whose test stops after one iteration; later iterations must not count as storing.
// ksynth:launch grid=((N + 127) / 128) block=(128)
// The do-while body runs for k = 0 only (the test k != 1 fails after it); row 1 is stored
// separately; rows >= 2 are never stored.
__global__ void dowhile_ne(const float *A, float *B, int K, int N) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n < N) {
    if (1 < K)
      B[1 * N + n] = A[1 * N + n];
    int k = 0;
    do {
      B[k * N + n] = A[k * N + n];
      ++k;
    } while (k < K && k != 1);
  }
}
