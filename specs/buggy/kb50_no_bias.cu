// ksynth:spec kernelbench/50_conv2d_alexnet expect=equivalence
// Buggy twin of kb50_conv2d_alexnet: the bias is never added (as if bias=False, the default of
// the other KernelBench convolutions; nn.Conv2d's own default is bias=True).
// ksynth:launch grid=((((W + 2 * PAD - KS) / ST + 1) + 15) / 16, (((H + 2 * PAD - KS) / ST + 1) + 15) / 16, B * CO) block=(16, 16)
// nn.Conv2d(CI, CO, KS, stride=ST, padding=PAD) with bias (column on x, row on y,
// batch * out-channel on z).
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb50_conv2d_alexnet(const float *X, const float *Wt, const float *Bias, float *Y, int B, int CI, int CO, int H, int W, int KS, int ST, int PAD) {
  int OH = ((H + 2 * PAD - KS) / ST + 1);
  int OW = ((W + 2 * PAD - KS) / ST + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KS; ++a) {
        int ih = oh * ST - PAD + a;
        for (int b = 0; b < KS; ++b) {
          int iw = ow * ST - PAD + b;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W)
            acc += X[(((long long)n * CI + ci) * H + ih) * W + iw] * Wt[(((long long)co * CI + ci) * KS + a) * KS + b];
        }
      }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
