// ksynth:spec layernorm
// ksynth:launch grid=(R) block=(256)
// A block per row, two passes, each through a blockSum helper that returns the row's sum to
// every thread: an xor butterfly per warp, the 8 warps' sums in shared memory, then every warp
// runs the second butterfly over `lane < 8 ? part[lane] : 0` (no broadcast, no second
// barrier). The mean's block sum sits inside each lane's sum of squared deviations, which the
// second block sum adds up. Two shared arrays, so the second call's stores cannot overtake a
// slow warp's reads of the first.
__device__ __forceinline__ float warpSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
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
