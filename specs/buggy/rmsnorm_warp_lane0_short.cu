// ksynth:spec rmsnorm expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: lane 0 skips the butterfly's last round (offset 1), so lane 0 scales its slice by the
// sum of the even lanes only; every other lane is right.
__global__ void rmsnorm_warp(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y, int R,
                             int C, float eps) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float ss = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float v = X[r * C + c];
    ss += v * v;
  }
  for (int off = 16; off > 0; off >>= 1) {
    float o = __shfl_xor_sync(0xffffffffu, ss, off);
    ss += (lane == 0 && off == 1) ? 0.0f : o;
  }
  float inv = rsqrtf(ss / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
