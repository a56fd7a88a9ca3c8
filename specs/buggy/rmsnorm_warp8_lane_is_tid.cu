// ksynth:spec rmsnorm expect=coverage
// ksynth:launch grid=((R + 7) / 8) block=(256)
// Bug: the lane is threadIdx.x, not threadIdx.x % 32: warp w's slice starts at column 32 w, so
// rows of warps past the first miss their first 32 w columns.
__global__ void rmsnorm_warp8(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y, int R,
                              int C, float eps) {
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = threadIdx.x;
  if (r >= R)
    return;
  float ss = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float v = X[r * C + c];
    ss += v * v;
  }
  for (int off = 16; off > 0; off >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, off);
  float inv = rsqrtf(ss / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
