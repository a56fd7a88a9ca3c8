// ksynth:spec kernelbench/74_conv_transposed_1d_dilated expect=equivalence
// Buggy twin of kb74: the output length has the dilation but the taps do not (o - k for
// o - k DIL).
// ksynth:launch grid=(((L - 1) * S + DIL * (K - 1) + 1 + 255) / 256, CO, B) block=(256)
// One thread per output element: output position on x, out-channel on y, batch on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb74_conv_transposed_1d_dilated(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int L, int K, int S, int DIL) {
  int OL = (L - 1) * S + DIL * (K - 1) + 1;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int co = blockIdx.y;
  int n = blockIdx.z;
  if (o < OL) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int k = 0; k < K; ++k) {
        int t = o - k;
        if (t >= 0 && t % S == 0 && t / S < L)
          acc += X[((long long)n * CI + ci) * L + t / S] *
                 Wt[((long long)ci * CO + co) * K + k];
      }
    }
    Y[((long long)n * CO + co) * OL + o] = acc;
  }
}
