// ksynth:spec mse_loss_acc
// ksynth:launch grid=(264) block=(256)
// Each thread sums the squared differences of a grid-strided slice, each warp reduces its 32
// partial sums by shuffles, lane 0 of each warp leaves the warp's sum in shared memory, warp 0
// reduces the 8 warp sums by shuffles, and thread 0 adds the block's sum over N to L (which
// the caller zeroes): one atomic per block, 264 in all (mse_loss_acc_warp has 2112).
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
    if (lane == 0)
      atomicAdd(L, v / N);
  }
}
