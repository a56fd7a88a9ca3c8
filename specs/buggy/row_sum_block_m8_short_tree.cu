// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: the second stage (lanes 0..7, mask 0xff) starts at offset 2: lane 0 adds part[0..3]
// only, the sums of warps 4..7 are lost.
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
    for (int off = 2; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffu, v, off, 8);
    if (lane == 0)
      Y[r] = v;
  }
}
