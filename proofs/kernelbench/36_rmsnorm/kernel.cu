// ksynth:launch grid=((W + 255) / 256, H, B) block=(256)
// One thread per (b, h, w): the mean of squares down the F channels, then the F outputs of
// that column scaled by 1 / sqrt(mean + eps). Coalesced across w.
__global__ void kb36_rmsnorm(const float *X, float *Y, int B, int F, int H, int W) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y;
  int b = blockIdx.z;
  if (w < W) {
    float ss = 0.0f;
    for (int c = 0; c < F; ++c) {
      float v = X[((b * F + c) * H + h) * W + w];
      ss += v * v;
    }
    float rms = sqrtf(ss / F + 1e-5f);
    for (int c = 0; c < F; ++c) {
      int i = ((b * F + c) * H + h) * W + w;
      Y[i] = X[i] / rms;
    }
  }
}
