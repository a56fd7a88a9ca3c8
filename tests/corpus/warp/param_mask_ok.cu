// expect: proven
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: the mask is the caller's (a parameter): only the lanes it names take part, and a warp
// note: sum over them (__reduce_add_sync) folds those lanes only
__global__ void masked_sums(const int *x, int *out, int n, unsigned mask) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if ((mask >> lane) & 1u) {
    int v = i < n ? x[i] : 0;
    int w = (int)__reduce_add_sync(mask, (unsigned)v);
    if (i < n)
      out[i] = w;
  }
}
