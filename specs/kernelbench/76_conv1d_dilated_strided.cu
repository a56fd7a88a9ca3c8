// ksynth:launch grid=((((L - (DIL * (KS - 1) + 1)) / ST + 1) + 255) / 256, CO, B) block=(256)
// nn.Conv1d(CI, CO, KS, stride=ST, dilation=DIL), no padding, no bias (position on x,
// out-channel on y, batch on z). One thread per output element: a loop over the input channels and the taps;
// 64-bit index arithmetic.
__global__ void kb76_conv1d_dilated_strided(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int L, int KS, int ST, int DIL) {
  int OL = ((L - (DIL * (KS - 1) + 1)) / ST + 1);
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  int co = blockIdx.y;
  int n = blockIdx.z;
  if (o < OL) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int k = 0; k < KS; ++k) {
        int il = o * ST + k * DIL;
        if (il >= 0 && il < L)
          acc += X[((long long)n * CI + ci) * L + il] * Wt[((long long)co * CI + ci) * KS + k];
      }
    }
    Y[((long long)n * CO + co) * OL + o] = acc;
  }
}
