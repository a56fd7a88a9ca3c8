// ksynth:spec kernelbench/42_maxpool2d expect=equivalence
// Buggy twin of kb42: the row loop runs u <= KS, one tap past the window, so where that row is
// inside the image its pixels join the max.
// ksynth:launch grid=(((W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 256) / 256, C, B) block=(256)
__global__ void kb42_maxpool2d(const float *X, float *Y, int B, int C, int H, int W, int KS, int ST,
                               int PAD, int DIL) {
  int OH = (H + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int OW = (W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (j < OW) {
    long long sj = (long long)j * ST - PAD;
    for (int i = 0; i < OH; ++i) {
      float m = -3.402823466e+38f; // -FLT_MAX
      for (int u = 0; u <= KS; ++u)
        if ((long long)i * ST - PAD + (long long)u * DIL >= 0 && (long long)i * ST - PAD + (long long)u * DIL < H)
          for (int v = 0; v < KS; ++v)
            if (sj + (long long)v * DIL >= 0 && sj + (long long)v * DIL < W)
              m = fmaxf(m, X[(((long long)b * C + c) * H + (long long)i * ST - PAD + (long long)u * DIL) * W + sj + (long long)v * DIL]);
      Y[(((long long)b * C + c) * OH + i) * OW + j] = m;
    }
  }
}
