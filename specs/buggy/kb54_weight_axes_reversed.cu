// ksynth:spec kernelbench/54_conv3d_square expect=equivalence
// Buggy twin of kb54_conv3d_square: the weight's three kernel axes are read in reverse order
// (Wt[co][ci][c][b][a] for tap (a, b, c)), a layout mix-up between DHW and HWD.
// ksynth:launch grid=((((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16, ((D + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) * ((((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 15) / 16), B * CO) block=(16, 16)
// nn.Conv3d(CI, CO, KS, stride=ST, padding=PAD, dilation=DIL), no bias. The last output axis on x (tiles of 16),
// (first output axis, tile of 16 of the second) flattened on y, batch * out-channel on z.
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb54_conv3d_square(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int W, int H, int KS, int ST, int DIL, int PAD) {
  int OD = ((D + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OW = ((W + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int OH = ((H + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int T = (OW + 15) / 16;
  int oh = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y / T;
  int ow = (blockIdx.y % T) * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (od < OD && ow < OW && oh < OH) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KS; ++a) {
        int id = od * ST - PAD + a * DIL;
        for (int b = 0; b < KS; ++b) {
          int iw = ow * ST - PAD + b * DIL;
          for (int c = 0; c < KS; ++c) {
            int ih = oh * ST - PAD + c * DIL;
            if (id >= 0 && id < D && iw >= 0 && iw < W && ih >= 0 && ih < H)
              acc += X[((((long long)n * CI + ci) * D + id) * W + iw) * H + ih] * Wt[((((long long)co * CI + ci) * KS + c) * KS + b) * KS + a];
          }
        }
      }
    }
    Y[((((long long)n * CO + co) * OD + od) * OW + ow) * OH + oh] = acc;
  }
}
