// ksynth:spec kernelbench/91_cumsum_reverse expect=equivalence
// Buggy twin of kb91_cumsum_reverse: the cumsum of the flipped row is not flipped back, so
// Y[b][i] holds the sum of the last i + 1 elements instead of the suffix from i.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb91_cumsum_reverse(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = N - 1 - i; k < N; ++k)
      acc += X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
