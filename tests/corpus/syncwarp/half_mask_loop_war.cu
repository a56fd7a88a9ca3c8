// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert,warp
// note: twin of half_mask_loop_ok without the second __syncwarp(0x0000ffff): a lane's store of
// note: the next round races with its neighbour's read of this round
__global__ void half_loop(const float *x, float *out, int n) {
  __requires(n >= 0 && n <= 1 << 20);
  __requires(__len(x) >= n && __len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x, lane = t % 32;
  if (lane < 16) {
    for (int base = 0; base < n; base += 16) {
      int i = base + lane;
      s[t] = i < n ? x[i] : 0.0f;
      __syncwarp(0x0000ffffu);
      float v = s[t ^ 1];
      if (i < n && t < 32)
        out[i] = v;
    }
  }
}
