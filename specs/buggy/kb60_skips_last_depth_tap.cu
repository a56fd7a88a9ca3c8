// ksynth:spec kernelbench/60_conv3d_asym_kernel expect=equivalence
// Buggy twin of kb60_conv3d_asym_kernel: off by one in the window, the last depth tap is skipped.
// ksynth:launch grid=((((D + 2 * PAD - (DIL * (KD - 1) + 1)) / ST + 1) + 15) / 16, ((W + 2 * PAD - (DIL * (KW - 1) + 1)) / ST + 1) * ((((H + 2 * PAD - (DIL * (KH - 1) + 1)) / ST + 1) + 15) / 16), B * CO) block=(16, 16)
// nn.Conv3d(CI, CO, (KW, KH, KD), stride=ST, padding=PAD, dilation=DIL), no bias. The last output axis on x (tiles of 16),
// (first output axis, tile of 16 of the second) flattened on y, batch * out-channel on z.
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb60_conv3d_asym_kernel(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int W, int H, int D, int KW, int KH, int KD, int ST, int DIL, int PAD) {
  int OW = ((W + 2 * PAD - (DIL * (KW - 1) + 1)) / ST + 1);
  int OH = ((H + 2 * PAD - (DIL * (KH - 1) + 1)) / ST + 1);
  int OD = ((D + 2 * PAD - (DIL * (KD - 1) + 1)) / ST + 1);
  int T = (OH + 15) / 16;
  int od = blockIdx.x * blockDim.x + threadIdx.x;
  int ow = blockIdx.y / T;
  int oh = (blockIdx.y % T) * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (ow < OW && oh < OH && od < OD) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KW; ++a) {
        int iw = ow * ST - PAD + a * DIL;
        for (int b = 0; b < KH; ++b) {
          int ih = oh * ST - PAD + b * DIL;
          for (int c = 0; c < KD - 1; ++c) {
            int id = od * ST - PAD + c * DIL;
            if (iw >= 0 && iw < W && ih >= 0 && ih < H && id >= 0 && id < D)
              acc += X[((((long long)n * CI + ci) * W + iw) * H + ih) * D + id] * Wt[((((long long)co * CI + ci) * KW + a) * KH + b) * KD + c];
          }
        }
      }
    }
    Y[((((long long)n * CO + co) * OW + ow) * OH + oh) * OD + od] = acc;
  }
}
