// ksynth:spec kernelbench/46_avgpool3d expect=equivalence
// Buggy twin of kb46_avgpool3d: divides by KS * KS (a 2-D window's size) instead of KS^3.
// ksynth:launch grid=(((D3 + 2 * PAD - KS) / ST + 256) / 256, C, B) block=(256)
// nn.AvgPool3d(KS, stride=ST, padding=PAD) (count_include_pad=True). One thread per output
// position l along the last axis of one (b, c) volume (l on x, channel on y, batch on z),
// looping over the output positions (i, j) of the first two axes: the sum of the window's
// taps inside the volume (padded taps add 0) over KS^3. 64-bit indices (2^31 input elements).
__global__ void kb46_avgpool3d(const float *X, float *Y, int B, int C, int D1, int D2, int D3, int KS,
                               int ST, int PAD) {
  int O1 = (D1 + 2 * PAD - KS) / ST + 1;
  int O2 = (D2 + 2 * PAD - KS) / ST + 1;
  int O3 = (D3 + 2 * PAD - KS) / ST + 1;
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (l < O3) {
    long long s3 = (long long)l * ST - PAD;
    for (int i = 0; i < O1; ++i)
      for (int j = 0; j < O2; ++j) {
        float acc = 0.0f;
        for (int u = 0; u < KS; ++u)
          for (int v = 0; v < KS; ++v)
            for (int w = 0; w < KS; ++w)
              if ((long long)i * ST - PAD + u >= 0 && (long long)i * ST - PAD + u < D1 &&
                  (long long)j * ST - PAD + v >= 0 && (long long)j * ST - PAD + v < D2 &&
                  s3 + w >= 0 && s3 + w < D3)
                acc += X[((((long long)b * C + c) * D1 + (long long)i * ST - PAD + u) * D2 +
                          (long long)j * ST - PAD + v) * D3 + s3 + w];
        Y[((((long long)b * C + c) * O1 + i) * O2 + j) * O3 + l] = acc / (KS * KS);
      }
  }
}
