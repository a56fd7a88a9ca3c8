// ksynth:spec layernorm expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: the butterflies are __shfl_down_sync trees: only lane 0 of each warp holds the block sum, every other thread normalises with a partial one.
__device__ __forceinline__ float warpSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__device__ __forceinline__ float blockSum(float v, float *part) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  v = lane < 8 ? part[lane] : 0.0f;
  return warpSum(v);
}

__global__ void layernorm_block_allwarps(const float *__restrict__ X, const float *__restrict__ G,
                                         const float *__restrict__ B, float *__restrict__ Y, int R, int C,
                                         float eps) {
  __shared__ float ps[8];
  __shared__ float pq[8];
  int r = blockIdx.x;
  const float *x = X + r * C;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += x[c];
  float mean = blockSum(s, ps) / C;
  float q = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256) {
    float d = x[c] - mean;
    q += d * d;
  }
  float inv = rsqrtf(blockSum(q, pq) / C + eps);
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = (x[c] - mean) * inv * G[c] + B[c];
}
