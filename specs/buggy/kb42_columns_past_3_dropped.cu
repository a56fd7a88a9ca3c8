// ksynth:spec kernelbench/42_maxpool2d expect=equivalence
// Buggy twin of kb42: the column loop stops at 3 taps (a bound left from a 3 x 3 pool), so
// windows wider than 3 miss their right columns. Right wherever KS <= 3: a test at the
// problem's own window (KS = 4, from the spec's sizes) sees it, and the bounded check only
// once it reaches dims of 4 (its budget may end before).
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
      for (int u = 0; u < KS; ++u)
        if ((long long)i * ST - PAD + (long long)u * DIL >= 0 && (long long)i * ST - PAD + (long long)u * DIL < H)
          for (int v = 0; v < KS && v < 3; ++v)
            if (sj + (long long)v * DIL >= 0 && sj + (long long)v * DIL < W)
              m = fmaxf(m, X[(((long long)b * C + c) * H + (long long)i * ST - PAD + (long long)u * DIL) * W + sj + (long long)v * DIL]);
      Y[(((long long)b * C + c) * OH + i) * OW + j] = m;
    }
  }
}
