// ksynth:spec kernelbench/72_conv_transposed_3d_strided_padded_grouped expect=equivalence
// Buggy twin of kb72: the group test ci / (CI / G) == g written <=, so an out-channel also
// gathers the in-channels of every earlier group: right when G = 1, wrong for the second
// group on.
// ksynth:launch grid=(((H - 1) * SH - 2 * PH + (KH - 1) + OPH + 1 + 63) / 64, (D - 1) * SD - 2 * PD + (KD - 1) + OPD + 1, B * CO) block=(64)
__global__ void kb72_conv_transposed_3d_strided_padded_grouped(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW, int PD, int PH, int PW, int OPD, int OPH, int OPW, int G) {
  int OD = (D - 1) * SD - 2 * PD + (KD - 1) + OPD + 1;
  int OH = (H - 1) * SH - 2 * PH + (KH - 1) + OPH + 1;
  int OW = (W - 1) * SW - 2 * PW + (KW - 1) + OPW + 1;
  int oh = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  int cig = CI / G, cog = CO / G;
  int g = co / cog, cw = co % cog;
  if (oh < OH)
  for (int ow = 0; ow < OW; ++ow) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      int ka = ci / cig <= g ? KD : 0; // in-channels outside co's group contribute nothing
      for (int kd = 0; kd < ka; ++kd)
        for (int kh = 0; kh < KH; ++kh)
          for (int kw = 0; kw < KW; ++kw) {
            int td = od + PD - kd;
            int th = oh + PH - kh;
            int tw = ow + PW - kw;
            if (td >= 0 && td % SD == 0 && td / SD < D && th >= 0 && th % SH == 0 && th / SH < H && tw >= 0 && tw % SW == 0 && tw / SW < W)
              acc += X[((((long long)n * CI + ci) * D + td / SD) * H + th / SH) * W + tw / SW] *
                     Wt[((((long long)ci * cog + cw) * KD + kd) * KH + kh) * KW + kw];
          }
    }
    Y[((((long long)n * CO + co) * OD + od) * OH + oh) * OW + ow] = acc;
  }
}
