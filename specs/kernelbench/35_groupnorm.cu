// ksynth:launch grid=(F, N) block=(256)
// One block per (channel c, sample n). Thread 0 sums the elements of c's group (the K = F / G
// channels c2 with c2 / K == c / K; the row loop of any other channel is empty) and their
// squares, in double, and hands the mean and the biased variance E[x^2] - E[x]^2 to the block
// through shared memory; then the block normalises the (n, c) plane, thread t taking the
// columns w = t, t + 256, ... of every row h. (The K blocks of a group each compute its
// statistics.)
__global__ void kb35_groupnorm(const float *X, float *Y, int N, int F, int G, int H, int W) {
  __shared__ float stat[2];
  unsigned t = threadIdx.x;
  int c = blockIdx.x;
  int n = blockIdx.y;
  int K = F / G;
  if (t == 0) {
    double s = 0.0, ss = 0.0;
    for (int c2 = 0; c2 < F; ++c2) {
      int rows = c2 / K == c / K ? H : 0;
      for (int h = 0; h < rows; ++h)
        for (int w = 0; w < W; ++w) {
          double x = X[((n * F + c2) * H + h) * W + w];
          s += x;
          ss += x * x;
        }
    }
    double mean = s / (K * H * W);
    stat[0] = (float)mean;
    stat[1] = (float)(ss / (K * H * W) - mean * mean);
  }
  __syncthreads();
  float mean = stat[0], den = sqrtf(stat[1] + 1e-5f);
  for (int h = 0; h < H; ++h)
    for (int w = t; w < W; w += 256) {
      int i = ((n * F + c) * H + h) * W + w;
      Y[i] = (X[i] - mean) / den;
    }
}
