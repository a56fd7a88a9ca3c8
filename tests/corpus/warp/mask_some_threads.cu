// expect: refuted warp
// args: --block 64 --checks race,barrier,bounds,assert,warp
// note: the mask is the full one in the first warp only (0x0000ffff in the second): lanes
// note: 16..31 of the second warp call with a mask that does not name them, and lanes 0..15 read
// note: lanes 16..31 (refuted, replayed)
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  unsigned mask = threadIdx.x < 32 ? 0xffffffffu : 0x0000ffffu;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
