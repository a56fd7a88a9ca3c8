// ksynth:launch grid=((N + 255) / 256) block=(256)
__global__ void relu(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float v = X[i];
    Y[i] = v > 0.0f ? v : 0.0f;
  }
}
