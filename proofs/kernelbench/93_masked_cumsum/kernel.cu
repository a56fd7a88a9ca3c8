// ksynth:launch grid=((N + 255) / 256, B) block=(256)
// torch.cumsum(x * mask, dim=1). One thread per output element (column on x, row on y),
// summing the row's prefix where the mask byte is set (quadratic work: a reference).
__global__ void kb93_masked_cumsum(const float *X, const unsigned char *M, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 0.0f;
    for (int k = 0; k <= i; ++k)
      if (M[(long long)b * N + k] != 0)
        acc += X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
