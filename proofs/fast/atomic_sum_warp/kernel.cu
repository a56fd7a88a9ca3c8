// ksynth:spec atomic_sum
// ksynth:launch grid=(264) block=(256)
// Each thread sums a grid-strided slice, each warp reduces its 32 partial sums by shuffles,
// and lane 0 adds the warp's sum to S: 32 times fewer atomics than one per thread.
__global__ void atomic_sum_warp(const float *__restrict__ X, float *S, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (threadIdx.x % 32 == 0)
    atomicAdd(S, acc);
}
