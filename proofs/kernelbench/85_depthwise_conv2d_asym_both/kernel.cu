// ksynth:launch grid=((((W + 2 * PW - (DW * (KW - 1) + 1)) / SW + 1) + 15) / 16, (((H + 2 * PH - (DH * (KH - 1) + 1)) / SH + 1) + 15) / 16, B * C) block=(16, 16)
// Depthwise nn.Conv2d(C, C, (KH, KW), stride=(SH, SW), padding=(PH, PW), dilation=(DH, DW), groups=C),
// no bias (column on x, row on y, batch * channel on z).
// One thread per output element: a loop over the kernel taps of its own channel, skipping taps
// that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb85_depthwise_conv2d_asym_both(const float *X, const float *Wt, float *Y, int B, int C, int H, int W, int KH, int KW, int SH, int SW, int DH, int DW, int PH, int PW) {
  int OH = ((H + 2 * PH - (DH * (KH - 1) + 1)) / SH + 1);
  int OW = ((W + 2 * PW - (DW * (KW - 1) + 1)) / SW + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / C, c = blockIdx.z % C;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int a = 0; a < KH; ++a) {
      int ih = oh * SH - PH + a * DH;
      for (int b = 0; b < KW; ++b) {
        int iw = ow * SW - PW + b * DW;
        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
          acc += X[(((long long)n * C + c) * H + ih) * W + iw] * Wt[(((long long)c) * KH + a) * KW + b];
      }
    }
    Y[(((long long)n * C + c) * OH + oh) * OW + ow] = acc;
  }
}
