// ksynth:launch grid=((R + 127) / 128) block=(128)
// One thread per row; a sequential loop over the row.
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
      acc += X[r * C + c];
    Y[r] = acc;
  }
}
