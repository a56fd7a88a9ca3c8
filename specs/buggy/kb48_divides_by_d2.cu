// ksynth:spec kernelbench/48_mean_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb48_mean_dim: the sum down dim 1 is divided by D2, the kept dim's extent,
// instead of the count D1 of reduced elements.
__global__ void kb48_mean_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float acc = 0.0f;
    for (int k = 0; k < D1; ++k)
      acc += X[(b * D1 + k) * D2 + j];
    Y[b * D2 + j] = acc / D2;
  }
}
