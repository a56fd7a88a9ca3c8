// ksynth:launch grid=((L + 2 * PAD - KS) / ST / 256 + 1, C, B) block=(256)
// nn.AvgPool1d(KS, stride=ST, padding=PAD) (count_include_pad=True). One thread per output
// element (o on x, channel on y, batch on z): the sum of the window's taps inside [0, L)
// (padded taps add 0), divided by KS. 64-bit index arithmetic.
__global__ void kb44_avgpool1d(const float *X, float *Y, int B, int C, int L, int KS, int ST, int PAD) {
  int OL = (L + 2 * PAD - KS) / ST + 1;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (o < OL) {
    long long s = (long long)o * ST - PAD;
    float acc = 0.0f;
    for (int k = 0; k < KS; ++k)
      if (s + k >= 0 && s + k < L)
        acc += X[((long long)b * C + c) * L + s + k];
    Y[((long long)b * C + c) * OL + o] = acc / KS;
  }
}
