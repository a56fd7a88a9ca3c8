// expect: refuted warp
// args: --block 64
// note: lanes 8..15 read lanes 16..23, which the mask 0x0000ffff does not name (their value is
// note: undefined); partial_mask_ok.cu gives the shuffle the width 16
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0x0000ffffu, v, 8);
  if (i < n)
    out[i] = v;
}
