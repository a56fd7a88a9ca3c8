// ksynth:spec row_sum
// ksynth:launch grid=(132) block=(256)
// A warp per row over a fixed grid (132 blocks of eight warps, one wave on a 132-SM GPU): each
// warp takes rows warp, warp + 1056, ... (a grid-stride loop over rows), its lanes stride over
// the row in coalesced steps of 32, and an xor butterfly leaves the row's sum in
// every lane; lane 0 writes it. Launching R warps (row_sum_warp) makes many tiny blocks where
// R is large; here the grid is sized to the machine and each warp loops.
__global__ void row_sum_warp_gs(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 8 + (threadIdx.x >> 5); r < R; r += gridDim.x * 8) {
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
