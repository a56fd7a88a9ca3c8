// ksynth:launch grid=((N + 256) / 256, B - 1) block=(256)
// Exclusive cumsum as KernelBench 92 computes it: output (B-1) x (N+1). One thread per output
// element (column j <= N on x, row b < B-1 on y), each summing X[b][0..j-1] (quadratic work).
__global__ void kb92_cumsum_exclusive(const float *X, float *Y, int B, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j <= N) {
    float acc = 0.0f;
    for (int k = 0; k < j; ++k)
      acc += X[(long long)b * N + k];
    Y[(long long)b * (N + 1) + j] = acc;
  }
}
