// ksynth:spec rmsnorm
// ksynth:launch grid=(R) block=(256)
// A block per row: strided sum of squares, an xor butterfly per warp, the warps' sums in
// shared memory; then every warp (not warp 0 alone) runs the second butterfly over the 8 sums,
// so every thread holds the row's total without a second barrier and broadcast.
__global__ void rmsnorm_block_allwarps(const float *__restrict__ X, const float *__restrict__ G,
                                       float *__restrict__ Y, int R, int C, float eps) {
  __shared__ float part[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float ss = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256) {
    float v = X[r * C + c];
    ss += v * v;
  }
  for (int off = 16; off > 0; off >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, off);
  if (lane == 0)
    part[warp] = ss;
  __syncthreads();
  float v = lane < 8 ? part[lane] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  float inv = rsqrtf(v / C + eps);
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
