// ksynth:spec kernelbench/24_log_softmax expect=equivalence
// ksynth:launch grid=(B) block=(256)
// Bug: the second butterfly over the warps' sums reads seven of the eight slots: the last warp's
// part of the sum (columns 224..255 of every 256) is left out of the log.
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
  float ls = __logf(warpSum(lane < 7 ? wsum[lane] : 0.0f));
  for (int d = threadIdx.x; d < D; d += 256)
    Y[blockIdx.x * D + d] = (__ldg(x + d) - m) - ls;
}
