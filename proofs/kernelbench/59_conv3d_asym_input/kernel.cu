// ksynth:launch grid=((((D + 2 * PAD - 1) / ST + 1) + 15) / 16, ((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) * ((((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16), B * CO) block=(16, 16)
// nn.Conv3d(CI, CO, (KS, KS, 1), stride=ST, padding=PAD, dilation=DIL), no bias. The last output axis on x (tiles of 16),
// (first output axis, tile of 16 of the second) flattened on y, batch * out-channel on z.
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb59_conv3d_asym_input(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int D, int KS, int ST, int DIL, int PAD) {
  int OH = ((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OW = ((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OD = ((D + 2 * PAD - 1) / ST + 1);
  int T = (OW + 15) / 16;
  int od = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y / T;
  int ow = (blockIdx.y % T) * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW && od < OD) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KS; ++a) {
        int ih = oh * ST - PAD + a * DIL;
        for (int b = 0; b < KS; ++b) {
          int iw = ow * ST - PAD + b * DIL;
          int id = od * ST - PAD;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W && id >= 0 && id < D)
            acc += X[((((long long)n * CI + ci) * H + ih) * W + iw) * D + id] * Wt[(((long long)co * CI + ci) * KS + a) * KS + b];
        }
      }
    }
    Y[((((long long)n * CO + co) * OH + oh) * OW + ow) * OD + od] = acc;
  }
}
