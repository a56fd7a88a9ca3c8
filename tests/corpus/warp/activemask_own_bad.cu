// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: twin of activemask_own_ok: every lane reads lane 0 under __activemask(), which need not
// note: name lane 0 (the lanes converged at the call may be the caller alone)
__global__ void own(const int *x, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned m = __activemask();
  int w = __shfl_sync(m, v, 0);
  if (i < n)
    out[i] = w;
}
