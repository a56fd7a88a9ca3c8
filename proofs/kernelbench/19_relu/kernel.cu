// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb19_relu(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float v = X[b * D + d];
    Y[b * D + d] = v > 0.0f ? v : 0.0f;
  }
}
