// ksynth:spec atomic_sum expect=equivalence
// ksynth:launch grid=(2) block=(64)
// Bug: lane 1 adds its value, but a __shfl_down_sync tree leaves the warp's sum in lane 0
// only: lane 1 holds the sum of lanes 1..31 with some lanes counted twice.
__global__ void atomic_sum_warp(const float *__restrict__ X, float *S, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (threadIdx.x % 32 == 1)
    atomicAdd(S, acc);
}
