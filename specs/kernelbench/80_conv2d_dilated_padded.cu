// ksynth:launch grid=((((W + 2 * PW - (DW * (KW - 1) + 1)) / ST + 1) + 15) / 16, (((H + 2 * PH - (DH * (KH - 1) + 1)) / ST + 1) + 15) / 16, B * CO) block=(16, 16)
// nn.Conv2d(CI, CO, (KH, KW), stride=ST, padding=(PH, PW), dilation=(DH, DW)), no bias
// (column on x, row on y, batch * out-channel on z).
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb80_conv2d_dilated_padded(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int KH, int KW, int ST, int PH, int PW, int DH, int DW) {
  int OH = ((H + 2 * PH - (DH * (KH - 1) + 1)) / ST + 1);
  int OW = ((W + 2 * PW - (DW * (KW - 1) + 1)) / ST + 1);
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int a = 0; a < KH; ++a) {
        int ih = oh * ST - PH + a * DH;
        for (int b = 0; b < KW; ++b) {
          int iw = ow * ST - PW + b * DW;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W)
            acc += X[(((long long)n * CI + ci) * H + ih) * W + iw] * Wt[(((long long)co * CI + ci) * KH + a) * KW + b];
        }
      }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
