// ksynth:spec kernelbench/47_sum_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb47_sum_dim: the loop down dim 1 starts at 1, so row k = 0 is never added.
__global__ void kb47_sum_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float acc = 0.0f;
    for (int k = 1; k < D1; ++k)
      acc += X[(b * D1 + k) * D2 + j];
    Y[b * D2 + j] = acc;
  }
}
