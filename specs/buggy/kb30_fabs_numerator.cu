// ksynth:spec kernelbench/30_softsign expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: |x| / (1 + |x|): fabsf on the numerator too, so negative inputs lose their sign.
__global__ void kb30_softsign(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    Y[b * D + d] = fabsf(x) / (1.0f + fabsf(x));
  }
}
