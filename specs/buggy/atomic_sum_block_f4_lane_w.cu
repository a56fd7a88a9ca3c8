// ksynth:spec atomic_sum expect=equivalence
// ksynth:launch grid=(264) block=(256)
// Bug: each float4's fourth element is dropped (v.z twice).
__global__ void atomic_sum_block_f4(const float *__restrict__ X, float *S, int N) {
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  if (N % 4 == 0) {
    const float4 *x4 = reinterpret_cast<const float4 *>(X);
#pragma unroll 2
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N / 4; i += blockDim.x * gridDim.x) {
      float4 v = x4[i];
      acc += (v.x + v.y) + (v.z + v.z);
    }
  } else {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
      acc += X[i];
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
      atomicAdd(S, v);
  }
}
