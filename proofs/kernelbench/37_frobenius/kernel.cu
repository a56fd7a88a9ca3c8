// ksynth:launch grid=(1) block=(256)
// One block: thread 0 sums the squares of the whole tensor (in double) and hands the total to
// the block through shared memory; then every thread divides its columns w = t, t + 256, ...
// of every (b, c, h) row by the norm.
__global__ void kb37_frobenius(const float *X, float *Y, int B, int F, int H, int W) {
  __shared__ float total[1];
  unsigned t = threadIdx.x;
  if (t == 0) {
    double ss = 0.0;
    for (int b = 0; b < B; ++b)
      for (int c = 0; c < F; ++c)
        for (int h = 0; h < H; ++h)
          for (int w = 0; w < W; ++w) {
            double x = X[((b * F + c) * H + h) * W + w];
            ss += x * x;
          }
    total[0] = (float)ss;
  }
  __syncthreads();
  float norm = sqrtf(total[0]);
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < F; ++c)
      for (int h = 0; h < H; ++h)
        for (int w = t; w < W; w += 256) {
          int i = ((b * F + c) * H + h) * W + w;
          Y[i] = X[i] / norm;
        }
}
