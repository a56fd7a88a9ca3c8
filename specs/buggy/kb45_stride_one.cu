// ksynth:spec kernelbench/45_avgpool2d expect=equivalence
// Buggy twin of kb45_avgpool2d: the windows move by 1 (stride 1 assumed as the default)
// instead of by KS, so output (i, j) averages the window at (i, j), not at (i KS, j KS).
// ksynth:launch grid=(((W - KS) / KS + 256) / 256, C, B) block=(256)
// nn.AvgPool2d(KS) (stride KS, no padding). One thread per output column j of one (b, c) image
// (j on x, channel on y, batch on z), looping over the output rows i: the sum of the KS x KS
// window over KS * KS. 64-bit indices (the input has 2^32 elements).
__global__ void kb45_avgpool2d(const float *X, float *Y, int B, int C, int H, int W, int KS) {
  int OH = (H - KS) / KS + 1;
  int OW = (W - KS) / KS + 1;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (j < OW) {
    for (int i = 0; i < OH; ++i) {
      float acc = 0.0f;
      for (int u = 0; u < KS; ++u)
        for (int v = 0; v < KS; ++v)
          acc += X[(((long long)b * C + c) * H + (long long)i + u) * W + (long long)j + v];
      Y[(((long long)b * C + c) * OH + i) * OW + j] = acc / (KS * KS);
    }
  }
}
