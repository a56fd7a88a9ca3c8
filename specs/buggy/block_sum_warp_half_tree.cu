// ksynth:spec block_sum expect=equivalence
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Bug: each warp's tree starts at offset 8: lane 0 holds the sum of lanes 0..15, the chunk's elements 16..31 of each warp are lost.
__global__ void block_sum_warp(const float *__restrict__ X, float *__restrict__ Y, int N) {
  __shared__ float part[8];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = i < N ? X[i] : 0.0f;
  for (int off = 8; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 4; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[blockIdx.x] = v;
  }
}
