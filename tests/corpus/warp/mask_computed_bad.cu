// expect: refuted race
// args: --checks race,barrier,bounds,assert,warp
// note: twin of mask_computed_ok: lane 0 of every warp of a block stores out[blockIdx.x] (the
// note: mask premise holds, so the race is decided and replayed through it)
// ksynth:launch kernel=warp_sums<256> block=(256)
template <unsigned B>
__device__ float warp_sum(unsigned mask, float v) {
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(mask, v, off);
  return v;
}

template <unsigned B>
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  unsigned maskLength = B & 31;
  maskLength = maskLength > 0 ? 32 - maskLength : maskLength;
  const unsigned mask = 0xffffffffu >> maskLength;
  int i = blockIdx.x * B + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  v = warp_sum<B>(mask, v);
  if (threadIdx.x % 32 == 0 && i < n)
    out[blockIdx.x] = v;
}
