// ksynth:spec kernelbench/49_max_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb49_max_dim: the running max starts at 0, so a column of negative values
// gives 0 instead of its largest element.
__global__ void kb49_max_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float m = 0.0f;
    for (int k = 0; k < D1; ++k)
      m = fmaxf(m, X[(b * D1 + k) * D2 + j]);
    Y[b * D2 + j] = m;
  }
}
