// ksynth:spec rmsnorm
// ksynth:launch grid=(R) block=(32)
// One warp per row: each lane sums the squares of a strided slice, a __shfl_xor_sync
// butterfly gives every lane the row's total, and every lane scales its slice.
__global__ void rmsnorm_warp(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y, int R,
                             int C, float eps) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
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
