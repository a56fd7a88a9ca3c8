// expect: refuted barrier
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert,warp
// note: twin of half_mask_loop_ok: each lane starts at its own index, so where n is not a
// note: multiple of 16 some lanes the mask 0x0000ffff names leave the loop a round early
__global__ void half_loop(const float *x, float *out, int n) {
  __requires(n >= 0 && n <= 1 << 20);
  __requires(__len(x) >= n && __len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x, lane = t % 32;
  if (lane < 16) {
    for (int i = lane; i < n; i += 16) {
      s[t] = x[i];
      __syncwarp(0x0000ffffu);
      float v = s[t ^ 1];
      __syncwarp(0x0000ffffu);
      if (t < 32)
        out[i] = v;
    }
  }
}
