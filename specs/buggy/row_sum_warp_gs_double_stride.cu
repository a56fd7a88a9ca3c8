// ksynth:spec row_sum expect=coverage
// ksynth:launch grid=(132) block=(256)
// Bug: the rows are strided by twice the grid's warps: rows 1056 to 2111 (and every other
// 1056 after them) are never written.
__global__ void row_sum_warp_gs(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 8 + (threadIdx.x >> 5); r < R; r += gridDim.x * 16) {
    const float *x = X + r * C;
    float s = 0.0f;
    for (int c = lane; c < C; c += 32)
      s += x[c];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0)
      Y[r] = s;
  }
}
