// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: twin of mask_precondition_ok without the precondition: with full == 0 the mask is
// note: 0x1, which does not name lanes 1..31: refuted, never proven
__global__ void warp_sums(const float *x, float *out, int n, int full) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  unsigned mask = full ? 0xffffffffu : 0x1u;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
