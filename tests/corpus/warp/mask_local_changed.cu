// expect: refuted barrier
// args: --block 256
// note: the local mask is changed through a reference in half the lanes (0x0000ffff there):
// note: lane 16 meets the exchange with the full mask, naming lane 15, which meets it with
// note: another (refuted, replayed)
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  unsigned mask = 0xffffffffu;
  unsigned &m = mask;
  if (threadIdx.x % 32 < 16)
    m = 0x0000ffffu;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
