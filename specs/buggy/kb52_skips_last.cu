// ksynth:spec kernelbench/52_argmin_dim expect=equivalence
// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// Buggy twin of kb52_argmin_dim: the loop stops at D1 - 1 (`k < D1 - 1`), so the last
// element of dim 1 is never a candidate.
__global__ void kb52_argmin_dim(const float *X, long long *I, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    long long best = 0;
    float bv = X[b * D1 * D2 + j];
    for (int k = 1; k < D1 - 1; ++k) {
      float v = X[(b * D1 + k) * D2 + j];
      if (v < bv) {
        bv = v;
        best = k;
      }
    }
    I[b * D2 + j] = best;
  }
}
