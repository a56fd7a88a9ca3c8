// ksynth:spec kernelbench/67_conv1d expect=equivalence
// Buggy twin of kb67_conv1d: the channel loop starts at 1, input channel 0 is never summed.
// ksynth:launch grid=((((L + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1) + 255) / 256, CO, B) block=(256)
// nn.Conv1d(CI, CO, KS, stride=ST, padding=PAD, dilation=DIL), no bias (position on x,
// out-channel on y, batch on z).
// One thread per output element: a loop over the input channels and the kernel taps, skipping
// taps that fall in the zero padding; 64-bit index arithmetic.
__global__ void kb67_conv1d(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int L, int KS, int ST, int DIL, int PAD) {
  int OL = ((L + 2 * PAD - (DIL * (KS - 1) + 1)) / ST + 1);
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int co = blockIdx.y;
  int n = blockIdx.z;
  if (o < OL) {
    float acc = 0.0f;
    for (int ci = 1; ci < CI; ++ci) {
      for (int k = 0; k < KS; ++k) {
        int il = o * ST - PAD + k * DIL;
        if (il >= 0 && il < L)
          acc += X[((long long)n * CI + ci) * L + il] * Wt[((long long)co * CI + ci) * KS + k];
      }
    }
    Y[((long long)n * CO + co) * OL + o] = acc;
  }
}
