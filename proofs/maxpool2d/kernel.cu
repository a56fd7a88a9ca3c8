// ksynth:launch grid=((OW + 15) / 16, (OH + 15) / 16) block=(16, 16)
__global__ void maxpool2d(const float *X, float *Y, int OH, int OW) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < OH && j < OW) {
    int W = 2 * OW;
    int base = (2 * i) * W + 2 * j;
    float m = fmaxf(fmaxf(X[base], X[base + 1]), fmaxf(X[base + W], X[base + W + 1]));
    Y[i * OW + j] = m;
  }
}
