// ksynth:spec atomic_sum expect=equivalence
// ksynth:launch grid=(264) block=(256)
// Bug: every warp runs the second stage and adds: the block's sum is added 8 times.
__global__ void atomic_sum_block(const float *__restrict__ X, float *S, int N) {
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp] = acc;
  __syncthreads();
  {
    float v = lane < 8 ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      atomicAdd(S, v);
  }
}
