// ksynth:spec atomic_sum
// ksynth:launch grid=(264) block=(256)
// atomic_sum_block reading 128 bits at a time where N % 4 == 0 (a grid-strided float4 slice
// per thread, two float4s in flight: `#pragma unroll 2`), single floats otherwise; each warp
// reduces its 32 partial sums by shuffles, lane 0 of each warp leaves the warp's sum in shared
// memory, warp 0 reduces the 8 warp sums by shuffles, and thread 0 adds the block's sum to S
// (which the caller zeroes): one atomic per block, 264 in all.
__global__ void atomic_sum_block_f4(const float *__restrict__ X, float *S, int N) {
  __shared__ float warp_sums[8];
  float acc = 0.0f;
  if (N % 4 == 0) {
    const float4 *x4 = reinterpret_cast<const float4 *>(X);
#pragma unroll 2
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N / 4; i += blockDim.x * gridDim.x) {
      float4 v = x4[i];
      acc += (v.x + v.y) + (v.z + v.w);
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
