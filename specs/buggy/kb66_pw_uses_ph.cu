// ksynth:spec kernelbench/66_conv3d_asym_both expect=equivalence
// Buggy twin of kb66_conv3d_asym_both: the width axis subtracts the height padding PH
// instead of PW (a copy-paste slip).
// ksynth:launch grid=((((W + 2 * PW - (DW * (KW - 1) + 1)) / SW + 1) + 15) / 16, ((D + 2 * PD - (DD * (KD - 1) + 1)) / SD + 1) * ((((H + 2 * PH - (DH * (KH - 1) + 1)) / SH + 1) + 15) / 16), B * CO) block=(16, 16)
// nn.Conv3d(CI, CO, (KD, KH, KW), stride=(SD, SH, SW), padding=(PD, PH, PW), dilation=(DD, DH, DW)),
// no bias. The last output axis on x (tiles of 16), (first output axis, tile of 16 of the second) flattened on y, batch * out-channel on z.
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb66_conv3d_asym_both(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW, int DD, int DH, int DW, int PD, int PH, int PW) {
  int OD = ((D + 2 * PD - (DD * (KD - 1) + 1)) / SD + 1);
  int OH = ((H + 2 * PH - (DH * (KH - 1) + 1)) / SH + 1);
  int OW = ((W + 2 * PW - (DW * (KW - 1) + 1)) / SW + 1);
  int T = (OH + 15) / 16;
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y / T;
  int oh = (blockIdx.y % T) * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (od < OD && oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KD; ++a) {
        int id = od * SD - PD + a * DD;
        for (int b = 0; b < KH; ++b) {
          int ih = oh * SH - PH + b * DH;
          for (int c = 0; c < KW; ++c) {
            int iw = ow * SW - PH + c * DW;
            if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
              acc += X[((((long long)n * CI + ci) * D + id) * H + ih) * W + iw] * Wt[((((long long)co * CI + ci) * KD + a) * KH + b) * KW + c];
          }
        }
      }
    }
    Y[((((long long)n * CO + co) * OD + od) * OH + oh) * OW + ow] = acc;
  }
}
