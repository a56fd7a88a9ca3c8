// ksynth:spec kernelbench/93_masked_cumsum expect=equivalence
// Buggy twin of kb93_masked_cumsum: the mask is read at the output position i for every term
// (M[b][i] instead of M[b][k]), so a set bit at i adds the whole unmasked prefix.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb93_masked_cumsum(const float *X, const unsigned char *M, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = 0; k <= i; ++k)
      if (M[(long long)b * N + i] != 0)
        acc += X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
