// expect: refuted race
// args: --block 256
// note: twin of mask_local_ok: every lane writes its warp's sum, so two lanes of a warp race on out[i / 32]
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  unsigned mask = 0xffffffffu;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  __syncwarp(mask);
  if (i < n)
    out[i / 32] = v;
}
