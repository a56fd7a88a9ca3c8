// ksynth:spec kernelbench/51_argmax_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb51_argmax_dim: `>=` replaces the best on an equal value, so it returns the
// last of equal maxima; torch.argmax returns the first.
__global__ void kb51_argmax_dim(const float *X, long long *I, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    long long best = 0;
    float bv = X[b * D1 * D2 + j];
    for (int k = 1; k < D1; ++k) {
      float v = X[(b * D1 + k) * D2 + j];
      if (v >= bv) {
        bv = v;
        best = k;
      }
    }
    I[b * D2 + j] = best;
  }
}
