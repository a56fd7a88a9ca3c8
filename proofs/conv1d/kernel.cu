// ksynth:launch grid=((N - K + 1 + 255) / 256) block=(256)
__global__ void conv1d(const float *X, const float *W, float *Y, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N - K + 1) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += X[i + k] * W[k];
    Y[i] = acc;
  }
}
