// ksynth:spec kernelbench/90_cumprod expect=equivalence
// Buggy twin of kb90_cumprod: factors below zero are skipped (a sign-keeping "fix"), so a
// prefix holding a negative element has the wrong value.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb90_cumprod(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 1.0f;
    for (int k = 0; k <= i; ++k) {
      float x = X[(long long)b * N + k];
      if (x >= 0.0f)
        acc *= x;
    }
    Y[(long long)b * N + i] = acc;
  }
}
