// ksynth:launch grid=((W - KW + 16) / 16, (H - KH + 16) / 16) block=(16, 16)
__global__ void conv2d(const float *X, const float *Wt, float *Y, int H, int W, int KH, int KW) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int OH = H - KH + 1, OW = W - KW + 1;
  if (i < OH && j < OW) {
    float acc = 0.0f;
    for (int a = 0; a < KH; ++a)
      for (int b = 0; b < KW; ++b)
        acc += X[(i + a) * W + (j + b)] * Wt[a * KW + b];
    Y[i * OW + j] = acc;
  }
}
