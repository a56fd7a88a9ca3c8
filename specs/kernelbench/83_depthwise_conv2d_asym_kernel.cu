// ksynth:launch grid=((((W + 2 * PAD - 1) / ST + 1) + 15) / 16, (((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16, B * C) block=(16, 16)
// Depthwise nn.Conv2d(C, C, (KS, 1), stride=ST, padding=PAD, dilation=DIL, groups=C), no bias
// (column on x, row on y, batch * channel on z).
// One thread per output element: a loop over the kernel taps of its own channel, skipping taps
// that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb83_depthwise_conv2d_asym_kernel(const float *X, const float *Wt, float *Y, int B, int C, int H, int W, int KS, int ST, int DIL, int PAD) {
  int OH = ((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OW = ((W + 2 * PAD - 1) / ST + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / C, c = blockIdx.z % C;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int a = 0; a < KS; ++a) {
      int ih = oh * ST - PAD + a * DIL;
      int iw = ow * ST - PAD;
      if (ih >= 0 && ih < H && iw >= 0 && iw < W)
        acc += X[(((long long)n * C + c) * H + ih) * W + iw] * Wt[((long long)c) * KS + a];
    }
    Y[(((long long)n * C + c) * OH + oh) * OW + ow] = acc;
  }
}
