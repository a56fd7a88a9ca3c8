// ksynth:spec layernorm expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the deviations are taken from the row's sum, not its mean.
__global__ void layernorm_warp(const float *__restrict__ X, const float *__restrict__ G, const float *__restrict__ B,
                               float *__restrict__ Y, int R, int C, float eps) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const float *x = X + r * C;
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += x[c];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  float mean = s / C;
  float q = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float d = x[c] - s;
    q += d * d;
  }
  for (int off = 16; off > 0; off >>= 1)
    q += __shfl_xor_sync(0xffffffffu, q, off);
  float inv = rsqrtf(q / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = (x[c] - mean) * inv * G[c] + B[c];
}
