// ksynth:spec kernelbench/42_maxpool2d expect=equivalence
// Buggy twin of kb42_maxpool2d: the window's columns start at j*ST, the padding offset is
// forgotten for the width (rows keep it), so windows are shifted PAD columns right.
// ksynth:launch grid=(((W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 256) / 256, C, B) block=(256)
// nn.MaxPool2d(KS, stride=ST, padding=PAD, dilation=DIL). One thread per output column j of
// one (b, c) image (j on x, channel on y, batch on z), looping over the output rows i: a
// running fmaxf over the window's taps that fall inside the image, from -FLT_MAX (padded taps
// are -inf in PyTorch: they never win). 64-bit indices.
__global__ void kb42_maxpool2d(const float *X, float *Y, int B, int C, int H, int W, int KS, int ST,
                               int PAD, int DIL) {
  int OH = (H + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int OW = (W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (j < OW) {
    long long sj = (long long)j * ST;
    for (int i = 0; i < OH; ++i) {
      float m = -3.402823466e+38f; // -FLT_MAX
      for (int u = 0; u < KS; ++u)
        if ((long long)i * ST - PAD + (long long)u * DIL >= 0 && (long long)i * ST - PAD + (long long)u * DIL < H)
          for (int v = 0; v < KS; ++v)
            if (sj + (long long)v * DIL >= 0 && sj + (long long)v * DIL < W)
              m = fmaxf(m, X[(((long long)b * C + c) * H + (long long)i * ST - PAD + (long long)u * DIL) * W + sj + (long long)v * DIL]);
      Y[(((long long)b * C + c) * OH + i) * OW + j] = m;
    }
  }
}
