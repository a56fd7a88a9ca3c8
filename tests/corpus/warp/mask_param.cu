// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: the mask is the caller's (a parameter), which need not name the calling lane (mask = 0,
// note: say): a computed mask is modelled as it is, and this one is refuted, replayed
__global__ void warp_sums(const float *x, float *out, int n, unsigned mask) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
