// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=((R + 127) / 128) block=(128)
// Buggy twin of row_sum: accumulates into Y without clearing it first, so the result depends
// on whatever Y held before the launch (right only when the caller zeroed it).
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    for (int c = 0; c < C; ++c)
      Y[r] += X[r * C + c];
  }
}
