// ksynth:launch grid=(((L - 1) * S - 2 * P + DIL * (K - 1) + 1 + 255) / 256, CO, B) block=(256)
// nn.ConvTranspose1d(CI, CO, K, stride=S, padding=P, dilation=DIL), no bias. One thread per
// output element (position on x, out-channel on y, batch on z), gathering: tap k of in-channel
// ci contributes X[i] where o + P - k DIL = i S, 0 <= i < L. t >= 0 is tested first so that
// C's truncating / and % agree with the spec's Euclidean div and mod.
__global__ void kb79_conv_transposed_1d_strided_dilated(const float *X, const float *Wt, float *Y, int B, int CI,
                                                        int CO, int L, int K, int S, int P, int DIL) {
  int OL = (L - 1) * S - 2 * P + DIL * (K - 1) + 1;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int co = blockIdx.y;
  int n = blockIdx.z;
  if (o < OL) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci)
      for (int k = 0; k < K; ++k) {
        int t = o + P - k * DIL;
        if (t >= 0 && t % S == 0 && t / S < L)
          acc += X[((long long)n * CI + ci) * L + t / S] * Wt[((long long)ci * CO + co) * K + k];
      }
    Y[((long long)n * CO + co) * OL + o] = acc;
  }
}
