// ksynth:spec mse_loss_acc expect=equivalence
// ksynth:launch grid=(264) block=(256)
// Bug: lane 7 of warp 0 adds: after the shuffle tree it holds a partial sum, not the block's.
__global__ void mse_loss_acc_block(const float *__restrict__ P, const float *__restrict__ T, float *L, int N) {
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float d = P[i] - T[i];
    acc += d * d;
  }
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
    if (lane == 7)
      atomicAdd(L, v / N);
  }
}
