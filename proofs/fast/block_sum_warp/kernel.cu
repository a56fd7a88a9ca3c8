// ksynth:spec block_sum
// ksynth:launch grid=((N + 255) / 256) block=(256)
// A chunk of 256 per block: each warp sums its 32 elements by a __shfl_down_sync tree, lane 0
// of each warp leaves the warp's sum in shared memory, and warp 0 sums the 8 by a second
// tree. Out-of-range threads contribute 0. One __syncthreads() instead of eight.
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
    for (int off = 4; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[blockIdx.x] = v;
  }
}
