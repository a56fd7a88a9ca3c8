// ksynth:spec kernelbench/90_cumprod expect=equivalence
// Buggy twin of kb90_cumprod: the running product starts at 0.0f (copied from a cumsum), so
// every output is 0.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb90_cumprod(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = 0; k <= i; ++k)
      acc *= X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
