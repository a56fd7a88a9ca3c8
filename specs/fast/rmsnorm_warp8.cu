// ksynth:spec rmsnorm
// ksynth:launch grid=((R + 7) / 8) block=(256)
// rmsnorm_warp with eight rows per block of 256 threads, a warp per row: each lane sums the
// squares of a strided slice of its row, an xor butterfly gives every lane the row's total,
// and every lane scales its slice. A warp past the last row returns before its first shuffle
// (all its lanes together).
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
    ss += __shfl_xor_sync(0xffffffffu, ss, off);
  float inv = rsqrtf(ss / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
