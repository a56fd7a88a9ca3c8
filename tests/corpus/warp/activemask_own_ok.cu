// expect: proven
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: __activemask() names the calling lane at least: a shuffle that reads the caller's own
// note: lane under it, and a __syncwarp with it, are defined for any set of converged lanes
__global__ void own(const int *x, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned m = __activemask();
  int w = __shfl_sync(m, v, threadIdx.x % 32);
  if (i < n)
    out[i] = w;
}
