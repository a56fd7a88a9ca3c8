// ksynth:launch grid=((N + 255) / 256, B) block=(256)
// Reverse cumsum along dim 1. One thread per output element (column on x, row on y), each
// summing its row's suffix X[b][i..N-1] (quadratic work: a reference, not a fast scan).
__global__ void kb91_cumsum_reverse(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = i; k < N; ++k)
      acc += X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
