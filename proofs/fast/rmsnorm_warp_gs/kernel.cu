// ksynth:spec rmsnorm
// ksynth:launch grid=(132) block=(256)
// A warp per row over a fixed grid of 132 blocks of eight warps (a grid-stride loop over rows):
// each lane sums the squares of a strided slice of its warp's row, an xor butterfly gives every
// lane the row's total, and every lane scales its slice.
__global__ void rmsnorm_warp_gs(const float *__restrict__ X, const float *__restrict__ G, float *__restrict__ Y,
                                int R, int C, float eps) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 8 + (threadIdx.x >> 5); r < R; r += gridDim.x * 8) {
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
}
