// ksynth:spec kernelbench/43_maxpool3d expect=equivalence
// Buggy twin of kb43: the innermost tap loop starts at 1, so the window's first tap along that
// axis never joins the max (an off-by-one from a loop that once started from the first
// element as its initial value).
// ksynth:launch grid=(((D3 + 2 * PAD - DIL * (KS - 1) - 1) / ST + 256) / 256, C, B) block=(256)
__global__ void kb43_maxpool3d(const float *X, float *Y, int B, int C, int D1, int D2, int D3, int KS,
                               int ST, int PAD, int DIL) {
  int O1 = (D1 + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int O2 = (D2 + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int O3 = (D3 + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (l < O3) {
    long long s3 = (long long)l * ST - PAD;
    for (int i = 0; i < O1; ++i)
      for (int j = 0; j < O2; ++j) {
        float m = -3.402823466e+38f; // -FLT_MAX
        for (int u = 0; u < KS; ++u)
          if ((long long)i * ST - PAD + (long long)u * DIL >= 0 && (long long)i * ST - PAD + (long long)u * DIL < D1)
            for (int v = 0; v < KS; ++v)
              if ((long long)j * ST - PAD + (long long)v * DIL >= 0 && (long long)j * ST - PAD + (long long)v * DIL < D2)
                for (int w = 1; w < KS; ++w)
                  if (s3 + (long long)w * DIL >= 0 && s3 + (long long)w * DIL < D3)
                    m = fmaxf(m, X[((((long long)b * C + c) * D1 + (long long)i * ST - PAD + (long long)u * DIL) * D2 +
                                    (long long)j * ST - PAD + (long long)v * DIL) * D3 + s3 + (long long)w * DIL]);
        Y[((((long long)b * C + c) * O1 + i) * O2 + j) * O3 + l] = m;
      }
  }
}
