// ksynth:spec kernelbench/24_log_softmax
// ksynth:launch grid=(B) block=(256)
// LogSoftmax with a block of 256 per row and warp shuffles: each thread's strided max, an xor
// butterfly per warp, the eight warps' maxima in shared memory and a second butterfly over
// them (every warp does it, so every thread gets the row's max with no broadcast slot); the
// same for the sum of __expf(x - max); each thread then writes x - max - __logf(sum). The
// row's offset `blockIdx.x * D` is unsigned arithmetic (as such kernels often write it): it does
// not wrap, since the spec bounds B * D below 2^31. (KernelBench 24's textbook kernel reduces
// through a 256-slot shared tree with nine barriers per pass.)
__device__ __forceinline__ float warpMax(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void log_softmax_block(const float *__restrict__ X, float *__restrict__ Y, int B, int D) {
  __shared__ float wmax[8];
  __shared__ float wsum[8];
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const float *x = X + blockIdx.x * D;
  float m = -3.402823466e+38f;
  for (int d = threadIdx.x; d < D; d += 256)
    m = fmaxf(m, __ldg(x + d));
  m = warpMax(m);
  if (lane == 0)
    wmax[w] = m;
  __syncthreads();
  m = warpMax(lane < 8 ? wmax[lane] : -3.402823466e+38f);
  float s = 0.0f;
  for (int d = threadIdx.x; d < D; d += 256)
    s += __expf(__ldg(x + d) - m);
  s = warpSum(s);
  if (lane == 0)
    wsum[w] = s;
  __syncthreads();
  float ls = __logf(warpSum(lane < 8 ? wsum[lane] : 0.0f));
  for (int d = threadIdx.x; d < D; d += 256)
    Y[blockIdx.x * D + d] = (__ldg(x + d) - m) - ls;
}
