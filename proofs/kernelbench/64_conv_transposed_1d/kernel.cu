// ksynth:launch grid=((L + K - 1 + 255) / 256, CO, B) block=(256)
// nn.ConvTranspose1d(CI, CO, K) (stride 1, padding 0, no bias). One thread per output element:
// output position on x, out-channel on y, batch on z; each thread gathers the input positions
// o - k that exist (0 <= o - k < L) over every in-channel and tap.
__global__ void kb64_conv_transposed_1d(const float *X, const float *Wt, float *Y, int B, int CI, int CO,
                                        int L, int K) {
  int OL = L + K - 1;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int co = blockIdx.y;
  int n = blockIdx.z;
  if (o < OL) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci)
      for (int k = 0; k < K; ++k) {
        int t = o - k;
        if (t >= 0 && t < L)
          acc += X[((long long)n * CI + ci) * L + t] * Wt[((long long)ci * CO + co) * K + k];
      }
    Y[((long long)n * CO + co) * OL + o] = acc;
  }
}
