// ksynth:spec kernelbench/53_min_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb53_min_dim: the running min starts at 0, so a column of positive values
// (torch.rand's inputs are all in [0, 1)) gives 0 instead of its smallest element.
__global__ void kb53_min_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float m = 0.0f;
    for (int k = 0; k < D1; ++k)
      m = fminf(m, X[(b * D1 + k) * D2 + j]);
    Y[b * D2 + j] = m;
  }
}
