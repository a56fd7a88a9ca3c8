// ksynth:spec softmax
// ksynth:launch grid=(R) block=(256)
// Two-pass softmax, a block of 256 per row, written the way FasterTransformer-style kernels
// write it: blockReduceMax / blockReduceSum helpers (an xor butterfly per warp, the warps'
// results in a static shared array, a second butterfly in every warp over
// `threadIdx.x < blockDim.x / 32.f ? shared[lane] : padding`, whose result only warp 0 holds),
// thread 0 leaving the row's max and sum in shared memory for every thread.
#include <cfloat>

__inline__ __device__ float warpReduceSum(float val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val += __shfl_xor_sync(0xffffffff, val, mask, 32);
  return val;
}

__inline__ __device__ float warpReduceMax(float val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val = fmaxf(val, __shfl_xor_sync(0xffffffff, val, mask, 32));
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x & 0x1f;
  int wid = threadIdx.x >> 5;
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : 0.0f;
  return warpReduceSum(val);
}

__inline__ __device__ float blockReduceMax(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x & 0x1f;
  int wid = threadIdx.x >> 5;
  val = warpReduceMax(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : -FLT_MAX;
  return warpReduceMax(val);
}

__global__ void softmax_block(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  __shared__ float s_max;
  __shared__ float s_sum;
  const float *x = X + blockIdx.x * C;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    m = fmaxf(m, x[c]);
  m = blockReduceMax(m);
  if (threadIdx.x == 0)
    s_max = m;
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    s += __expf(x[c] - s_max);
  s = blockReduceSum(s);
  if (threadIdx.x == 0)
    s_sum = s;
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    Y[blockIdx.x * C + c] = __expf(x[c] - s_max) / s_sum;
}
