// ksynth:spec rmsnorm expect=equivalence
// ksynth:launch grid=((R + 7) / 8) block=(256)
// Bug: the butterfly's width is 16: each half-warp adds up only its own lanes' squares.
__global__ void rmsnorm_warp8(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y, int R,
                              int C, float eps) {
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (r >= R)
    return;
  float ss = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float v = X[r * C + c];
    ss += v * v;
  }
  for (int off = 16; off > 0; off >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, off, 16);
  float inv = rsqrtf(ss / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
