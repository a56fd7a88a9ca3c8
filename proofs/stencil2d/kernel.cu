// ksynth:launch grid=((W + 13) / 16, (H + 13) / 16) block=(16, 16)
__global__ void stencil2d(const float *X, float *Y, int H, int W) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < H - 2 && j < W - 2) {
    int c = (i + 1) * W + (j + 1);
    Y[i * (W - 2) + j] = 0.2f * (X[c] + X[c - W] + X[c + W] + X[c - 1] + X[c + 1]);
  }
}
