// ksynth:spec kernelbench/92_cumsum_exclusive expect=equivalence
// Buggy twin of kb92_cumsum_exclusive: the element itself is included (k <= j, capped at the
// row's end), an inclusive scan shifted into the (N+1)-wide output.
// ksynth:launch grid=((N + 256) / 256, B - 1) block=(256)
__global__ void kb92_cumsum_exclusive(const float *X, float *Y, int B, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j <= N) {
    float acc = 0.0f;
    for (int k = 0; k <= j && k < N; ++k)
      acc += X[(long long)b * N + k];
    Y[(long long)b * (N + 1) + j] = acc;
  }
}
