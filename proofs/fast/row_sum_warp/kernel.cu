// ksynth:spec row_sum
// ksynth:launch grid=(R) block=(32)
// One warp per row: lanes stride over the row, then a shuffle tree; lane 0 writes.
__global__ void row_sum_warp(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
