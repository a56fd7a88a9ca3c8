// ksynth:spec atomic_sum expect=equivalence
// ksynth:launch grid=(264) block=(256)
// Bug: the loop strides by half the grid (132 blocks): past 33792 elements the second half of the grid's first sweep adds what the first half's second sweep adds too.
__global__ void atomic_sum_block(const float *__restrict__ X, float *S, int N) {
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * 132)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      atomicAdd(S, v);
  }
}
