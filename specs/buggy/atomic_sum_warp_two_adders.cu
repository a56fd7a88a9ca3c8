// ksynth:spec atomic_sum expect=equivalence
// ksynth:launch grid=(2) block=(64)
// Bug: lanes 0 and 16 both add: the tree's lane 16 holds the sum of lanes 16..31, which lane
// 0's sum already counts.
__global__ void atomic_sum_warp(const float *__restrict__ X, float *S, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (threadIdx.x % 16 == 0)
    atomicAdd(S, acc);
}
