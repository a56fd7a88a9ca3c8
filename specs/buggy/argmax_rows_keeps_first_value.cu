// ksynth:spec argmax_rows expect=equivalence
// ksynth:launch grid=((R + 127) / 128) block=(128)
// Buggy twin of argmax_rows: the best value is never updated, so the index is the last column
// larger than column 0, not the largest.
__global__ void argmax_rows(const float *X, int *I, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    int best = 0;
    float bv = X[r * C];
    for (int c = 1; c < C; ++c) {
      float v = X[r * C + c];
      if (v > bv) {
        best = c;
      }
    }
    I[r] = best;
  }
}
