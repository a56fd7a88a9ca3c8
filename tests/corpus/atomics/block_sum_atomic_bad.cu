// expect: refuted race
// args: --block 256 --grid 264 --timeout 30
// note: warps w and w + 4 store their sums into the same cell warp_sums[w % 4] in one barrier interval: lane 0 of warp 0 (thread 0) and lane 0 of warp 4 (thread 128) write warp_sums[0]
__global__ void block_sum_atomic(const float *__restrict__ X, float *S, int N) {
  __requires(N >= 0 && N <= (1 << 30) && __len(X) >= N && __len(S) >= 1);
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp % 4] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      atomicAdd(S, v);
  }
}
