// ksynth:spec row_sum
// ksynth:launch grid=(R) block=(256)
// row_sum_block with a second stage in the eight lanes that hold a warp's sum: lanes 0..7 of
// warp 0 reduce part[0..7] by shuffles under the partial mask 0xff with width 8 (every lane read
// is one the mask names), the other 24 lanes of warp 0 skip it.
__global__ void row_sum_block_m8(const float *X, float *Y, int R, int C) {
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
  if (warp == 0 && lane < 8) {
    float v = part[lane];
    for (int off = 4; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffu, v, off, 8);
    if (lane == 0)
      Y[r] = v;
  }
}
