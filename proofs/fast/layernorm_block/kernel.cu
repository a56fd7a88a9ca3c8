// ksynth:spec layernorm
// ksynth:launch grid=(R) block=(256)
// A block per row, two passes, each a block reduction: a strided partial sum per thread, an
// xor butterfly per warp, the 8 warps' sums in shared memory, a second butterfly in warp 0
// whose lane 0 leaves the statistic (the mean, then 1 / sqrt(var + eps)) in shared memory for
// every thread. Rows of any length; the textbook layernorm_warp gives a row 32 threads.
__device__ __forceinline__ float warpSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void layernorm_block(const float *__restrict__ X, const float *__restrict__ G, const float *__restrict__ B,
                                float *__restrict__ Y, int R, int C, float eps) {
  __shared__ float ps[8];
  __shared__ float pq[8];
  __shared__ float stat[2];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float *x = X + r * C;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += x[c];
  s = warpSum(s);
  if (lane == 0)
    ps[warp] = s;
  __syncthreads();
  if (warp == 0) {
    float v = warpSum(lane < 8 ? ps[lane] : 0.0f);
    if (lane == 0)
      stat[0] = v / C;
  }
  __syncthreads();
  float mean = stat[0];
  float q = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256) {
    float d = x[c] - mean;
    q += d * d;
  }
  q = warpSum(q);
  if (lane == 0)
    pq[warp] = q;
  __syncthreads();
  if (warp == 0) {
    float v = warpSum(lane < 8 ? pq[lane] : 0.0f);
    if (lane == 0)
      stat[1] = rsqrtf(v / C + eps);
  }
  __syncthreads();
  float inv = stat[1];
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = (x[c] - mean) * inv * G[c] + B[c];
}
