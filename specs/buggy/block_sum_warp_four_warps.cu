// ksynth:spec block_sum expect=equivalence
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Bug: warp 0's second tree starts at offset 2: lane 0 adds the sums of warps 0..3 only.
__global__ void block_sum_warp(const float *__restrict__ X, float *__restrict__ Y, int N) {
  __shared__ float part[8];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = i < N ? X[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 2; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[blockIdx.x] = v;
  }
}
