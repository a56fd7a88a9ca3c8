// ksynth:spec kernelbench/89_cumsum expect=equivalence
// Buggy twin of kb89_cumsum: the loop stops before the element itself (k < i), an exclusive
// scan where torch.cumsum is inclusive.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb89_cumsum(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = 0; k < i; ++k)
      acc += X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
