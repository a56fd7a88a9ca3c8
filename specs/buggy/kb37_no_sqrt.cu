// ksynth:spec kernelbench/37_frobenius expect=equivalence
// ksynth:launch grid=(1) block=(256)
// Buggy twin of kb37_frobenius: the tensor is divided by the sum of squares itself; the
// Frobenius norm is its square root.
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
  float norm = total[0];
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < F; ++c)
      for (int h = 0; h < H; ++h)
        for (int w = t; w < W; w += 256) {
          int i = ((b * F + c) * H + h) * W + w;
          Y[i] = X[i] / norm;
        }
}
