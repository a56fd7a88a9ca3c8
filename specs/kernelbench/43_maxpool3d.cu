// ksynth:launch grid=(((D3 + 2 * PAD - DIL * (KS - 1) - 1) / ST + 256) / 256, C, B) block=(256)
// nn.MaxPool3d(KS, stride=ST, padding=PAD, dilation=DIL). One thread per output position l
// along the last axis of one (b, c) volume (l on x, channel on y, batch on z), looping over
// the output positions (i, j) of the first two axes: a running fmaxf over the window's taps
// inside the volume, from -FLT_MAX (padded taps are -inf in PyTorch: they never win). 64-bit
// indices.
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
                for (int w = 0; w < KS; ++w)
                  if (s3 + (long long)w * DIL >= 0 && s3 + (long long)w * DIL < D3)
                    m = fmaxf(m, X[((((long long)b * C + c) * D1 + (long long)i * ST - PAD + (long long)u * DIL) * D2 +
                                    (long long)j * ST - PAD + (long long)v * DIL) * D3 + s3 + (long long)w * DIL]);
        Y[((((long long)b * C + c) * O1 + i) * O2 + j) * O3 + l] = m;
      }
  }
}
