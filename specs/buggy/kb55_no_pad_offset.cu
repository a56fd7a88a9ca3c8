// ksynth:spec kernelbench/55_conv2d_asym_input expect=equivalence
// Buggy twin of kb55_conv2d_asym_input: the window starts at (oh*ST, ow*ST): the padding offset
// is forgotten, so every window is shifted PAD rows and columns down and right.
// ksynth:launch grid=((((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16, (((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16, B * CO) block=(16, 16)
// nn.Conv2d(CI, CO, KS, stride=ST, padding=PAD, dilation=DIL), no bias. One thread per output
// element (column on x, row on y, batch * out-channel on z): a loop over the input channels and
// the taps, skipping taps that fall in the zero padding.
__global__ void kb55_conv2d_asym_input(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int KS, int ST, int DIL, int PAD) {
  int OH = ((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OW = ((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KS; ++a) {
        int ih = oh * ST + a * DIL;
        for (int b = 0; b < KS; ++b) {
          int iw = ow * ST + b * DIL;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W)
            acc += X[(((long long)n * CI + ci) * H + ih) * W + iw] * Wt[(((long long)co * CI + ci) * KS + a) * KS + b];
        }
      }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
