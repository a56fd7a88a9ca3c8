// ksynth:launch grid=(((W - 1) * SW - 2 * PW + (KW - 1) + 1 + 15) / 16, ((H - 1) * SH - 2 * PH + (KH - 1) + 1 + 15) / 16, B * CO) block=(16, 16)
// One thread per output element: column on x, row on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb78_conv_transposed_2d_padded(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int KH, int KW, int SH, int SW, int PH, int PW) {
  int OH = (H - 1) * SH - 2 * PH + (KH - 1) + 1;
  int OW = (W - 1) * SW - 2 * PW + (KW - 1) + 1;
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kh = 0; kh < KH; ++kh)
        for (int kw = 0; kw < KW; ++kw) {
          int th = oh + PH - kh;
          int tw = ow + PW - kw;
          if (th >= 0 && th % SH == 0 && th / SH < H && tw >= 0 && tw % SW == 0 && tw / SW < W)
            acc += X[(((long long)n * CI + ci) * H + th / SH) * W + tw / SW] *
                   Wt[(((long long)ci * CO + co) * KH + kh) * KW + kw];
        }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
