// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// One thread per output element (b, j): a sum down dim 1, divided by D1.
__global__ void kb48_mean_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float acc = 0.0f;
    for (int k = 0; k < D1; ++k)
      acc += X[(b * D1 + k) * D2 + j];
    Y[b * D2 + j] = acc / D1;
  }
}
