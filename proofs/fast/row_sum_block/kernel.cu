// ksynth:spec row_sum
// ksynth:launch grid=(R) block=(256)
// A block per row: threads stride over the row, each warp reduces by shuffles, lane 0 of each
// warp leaves its sum in shared memory, and warp 0 reduces the 8 partial sums by shuffles.
__global__ void row_sum_block(const float *X, float *Y, int R, int C) {
  __shared__ float part[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[r] = v;
  }
}
