// ksynth:spec kernelbench/90_cumprod expect=equivalence
// Buggy twin of kb90_cumprod: the loop stops before X[b][i] (an exclusive prefix product,
// one factor short), so Y[b][0] is 1 and every output misses its own element.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb90_cumprod(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 1.0f;
    for (int k = 0; k < i; ++k)
      acc *= X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
