// ksynth:spec kernelbench/40_layernorm expect=equivalence
// ksynth:launch grid=(N) block=(256)
// Buggy twin of kb40_layernorm: each (c, h) row is normalised over its W elements alone, as
// nn.LayerNorm(W) would; nn.LayerNorm((F, H, W)) normalises over all three dims together.
__global__ void kb40_layernorm(const float *X, float *Y, int N, int F, int H, int W) {
  unsigned t = threadIdx.x;
  int n = blockIdx.x;
  for (int c = 0; c < F; ++c)
    for (int h = 0; h < H; ++h) {
      float s = 0.0f, ss = 0.0f;
      for (int w = 0; w < W; ++w) {
        float x = X[((n * F + c) * H + h) * W + w];
        s += x;
        ss += x * x;
      }
      float mean = s / W;
      float den = sqrtf(ss / W - mean * mean + 1e-5f);
      for (int w = t; w < W; w += 256) {
        int i = ((n * F + c) * H + h) * W + w;
        Y[i] = (X[i] - mean) / den;
      }
    }
}
