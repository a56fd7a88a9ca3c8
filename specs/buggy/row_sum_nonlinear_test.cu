// ksynth:spec row_sum expect=equivalence
// Found by review: a loop test that agrees with c < C at c = 0, 1, 2 but is not linear in c; its trip count is not C.
// ksynth:launch grid=((R + 127) / 128) block=(128)
// The loop test c + (c/3)*1000 < C is affine at c = 0, 1, 2 only: the loop stops at c = 3.
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c + (c / 3) * 1000 < C; ++c)
      acc += X[r * C + c];
    Y[r] = acc;
  }
}
