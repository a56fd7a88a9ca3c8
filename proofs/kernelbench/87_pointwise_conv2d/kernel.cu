// ksynth:launch grid=((W + 15) / 16, (H + 15) / 16, B * CO) block=(16, 16)
// nn.Conv2d(CI, CO, kernel_size=1), no bias (column on x, row on y, batch * out-channel on z).
// One thread per output element: a dot product over the input channels at its pixel;
// 64-bit index arithmetic.
__global__ void kb87_pointwise_conv2d(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (h < H && w < W) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci)
      acc += X[(((long long)n * CI + ci) * H + h) * W + w] * Wt[(long long)co * CI + ci];
    Y[(((long long)n * CO + co) * H + h) * W + w] = acc;
  }
}
