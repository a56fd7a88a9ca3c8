// ksynth:launch grid=((N + 255) / 256) block=(256)
__global__ void gelu(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float x = X[i];
    Y[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
  }
}
