// ksynth:launch grid=(((L + 2 * PAD - DIL * (KS - 1) - 1) / ST + 256) / 256, C, B) block=(256)
// nn.MaxPool1d(KS, stride=ST, padding=PAD, dilation=DIL). One thread per output element
// (o on x, channel on y, batch on z): a running fmaxf over the window's taps that fall inside
// [0, L), from -FLT_MAX (padded taps are -inf in PyTorch: they never win). 64-bit indices.
__global__ void kb41_maxpool1d(const float *X, float *Y, int B, int C, int L, int KS, int ST,
                               int PAD, int DIL) {
  int OL = (L + 2 * PAD - DIL * (KS - 1) - 1) / ST + 1;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int b = blockIdx.z;
  if (o < OL) {
    long long s = (long long)o * ST - PAD;
    float m = -3.402823466e+38f; // -FLT_MAX
    for (int k = 0; k < KS; ++k)
      if (s + (long long)k * DIL >= 0 && s + (long long)k * DIL < L)
        m = fmaxf(m, X[((long long)b * C + c) * L + s + (long long)k * DIL]);
    Y[((long long)b * C + c) * OL + o] = m;
  }
}
