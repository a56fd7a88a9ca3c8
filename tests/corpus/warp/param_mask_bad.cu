// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: twin of param_mask_ok: the lanes of the lower half-warp call with the caller's mask,
// note: which need not name them (mask = 0xffff0000, say)
__global__ void masked_sums(const int *x, int *out, int n, unsigned mask) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    int v = i < n ? x[i] : 0;
    int w = (int)__reduce_add_sync(mask, (unsigned)v);
    if (i < n)
      out[i] = w;
  }
}
