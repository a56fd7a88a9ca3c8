// ksynth:launch grid=(N) block=(256)
// One block per sample n. Thread 0 sums the sample's elements and their squares (nested
// loops over F, H, W, in double) and hands the mean and the biased variance
// E[x^2] - E[x]^2 to the block through shared memory; then the block normalises the sample,
// thread t taking the columns w = t, t + 256, ... of every (c, h) row.
__global__ void kb40_layernorm(const float *X, float *Y, int N, int F, int H, int W) {
  __shared__ float stat[2];
  unsigned t = threadIdx.x;
  int n = blockIdx.x;
  if (t == 0) {
    double s = 0.0, ss = 0.0;
    for (int c = 0; c < F; ++c)
      for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w) {
          double x = X[((n * F + c) * H + h) * W + w];
          s += x;
          ss += x * x;
        }
    double mean = s / (F * H * W);
    stat[0] = (float)mean;
    stat[1] = (float)(ss / (F * H * W) - mean * mean);
  }
  __syncthreads();
  float mean = stat[0], den = sqrtf(stat[1] + 1e-5f);
  for (int c = 0; c < F; ++c)
    for (int h = 0; h < H; ++h)
      for (int w = t; w < W; w += 256) {
        int i = ((n * F + c) * H + h) * W + w;
        Y[i] = (X[i] - mean) / den;
      }
}
