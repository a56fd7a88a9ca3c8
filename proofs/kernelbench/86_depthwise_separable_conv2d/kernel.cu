// ksynth:launch grid=(((W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1 + 15) / 16, ((H + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1 + 15) / 16, B * CO) block=(16, 16)
// Depthwise nn.Conv2d(CI, CI, KS, stride=ST, padding=PAD, dilation=DIL, groups=CI) then pointwise
// nn.Conv2d(CI, CO, 1), no biases (column on x, row on y, batch * out-channel on z). One thread per
// output element recomputes the depthwise value of each input channel at its pixel (simple, not
// fast: each depthwise value is recomputed CO times) and takes the pointwise dot product.
__global__ void kb86_depthwise_separable_conv2d(const float *X, const float *Wd, const float *Wp, float *Y, int B, int CI,
                                                int CO, int H, int W, int KS, int ST, int PAD, int DIL) {
  int OH = (H + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int OW = (W + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int c = 0; c < CI; ++c) {
      float z = 0.0f;
      for (int a = 0; a < KS; ++a) {
        int ih = oh * ST - PAD + a * DIL;
        for (int b = 0; b < KS; ++b) {
          int iw = ow * ST - PAD + b * DIL;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W)
            z += X[(((long long)n * CI + c) * H + ih) * W + iw] * Wd[((long long)c * KS + a) * KS + b];
        }
      }
      acc += z * Wp[(long long)co * CI + c];
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
