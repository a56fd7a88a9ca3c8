// expect: refuted warp
// args: --checks race,barrier,bounds,assert,warp
// note: twin of mask_computed_ok instantiated with B = 16: the mask is 0x0000ffff and the
// note: block has 16 threads, so lane 0 shuffling down by 16 reads a lane that does not exist
// note: (and lane 0 of each block stores out[i / 32]: blocks 0 and 1 race on out[0])
// ksynth:launch kernel=warp_sums<16> block=(16)
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
    out[i / 32] = v;
}
