// ksynth:spec rmsnorm expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the butterfly starts at offset 8: each lane scales its slice by the sum of its 16-lane
// half of the warp only (every lane uses it, so no lane has the row's total).
__global__ void rmsnorm_warp(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y, int R,
                             int C, float eps) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float ss = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float v = X[r * C + c];
    ss += v * v;
  }
  for (int off = 8; off > 0; off >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, off);
  float inv = rsqrtf(ss / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
