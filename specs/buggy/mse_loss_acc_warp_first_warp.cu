// ksynth:spec mse_loss_acc expect=equivalence
// ksynth:launch grid=(264) block=(256)
// Bug: only thread 0 of each block adds: the other seven warps' sums are lost.
__global__ void mse_loss_acc_warp(const float *__restrict__ P, const float *__restrict__ T, float *L, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float d = P[i] - T[i];
    acc += d * d;
  }
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (threadIdx.x == 0)
    atomicAdd(L, acc / N);
}
