// ksynth:spec argmax_rows expect=equivalence
// ksynth:launch grid=((R + 127) / 128) block=(128)
// Buggy twin of argmax_rows: the best index starts at 1 while the best value is column 0's,
// so a row whose first element is its largest gets index 1.
__global__ void argmax_rows(const float *X, int *I, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    int best = 1;
    float bv = X[r * C];
    for (int c = 1; c < C; ++c) {
      float v = X[r * C + c];
      if (v > bv) {
        bv = v;
        best = c;
      }
    }
    I[r] = best;
  }
}
