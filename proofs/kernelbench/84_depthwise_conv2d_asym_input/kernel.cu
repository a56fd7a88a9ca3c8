// ksynth:launch grid=((((W + 2 * PAD - KS) / ST + 1) + 15) / 16, (((H + 2 * PAD - KS) / ST + 1) + 15) / 16, B * CO) block=(16, 16)
// Depthwise nn.Conv2d(CI, CO, KS, stride=ST, padding=PAD, groups=CI), no bias: output channel co
// reads input channel co / (CO / CI) (column on x, row on y, batch * out-channel on z).
// One thread per output element: a loop over the kernel taps of its own channel, skipping taps
// that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb84_depthwise_conv2d_asym_input(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int KS, int ST, int PAD) {
  int OH = ((H + 2 * PAD - KS) / ST + 1);
  int OW = ((W + 2 * PAD - KS) / ST + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    int ci = co / (CO / CI);
    for (int a = 0; a < KS; ++a) {
      int ih = oh * ST - PAD + a;
      for (int b = 0; b < KS; ++b) {
        int iw = ow * ST - PAD + b;
        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
          acc += X[(((long long)n * CI + ci) * H + ih) * W + iw] * Wt[(((long long)co) * KS + a) * KS + b];
      }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
