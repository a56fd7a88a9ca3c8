// ksynth:spec kernelbench/90_cumprod expect=equivalence
// Buggy twin of kb90_cumprod: every factor reads X[b][i] instead of X[b][k], so the output is
// X[b][i] to the power i + 1 (the right number of factors, the wrong ones).
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb90_cumprod(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 1.0f;
    for (int k = 0; k <= i; ++k)
      acc *= X[(long long)b * N + i];
    Y[(long long)b * N + i] = acc;
  }
}
