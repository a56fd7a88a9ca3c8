// expect: unknown
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: must not be proven: the ballot's operand reads a local that the kernel changes (lanes 8..31
// note: set t = 0 when x[0] > 0), so its value is not the initialiser's (threadIdx.x) and the
// note: lanes' bits are read from the exchange, not computed; with x[0] > 0 the mask names lanes
// note: 8..31, which never reach the shuffle (input-dependent: unknown, not refuted)
__global__ void block_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.x == 256);
  __requires(__len(x) >= n && n >= 1);
  __requires(__len(out) >= gridDim.x);
  int t = threadIdx.x;
  if (t >= 8 && x[0] > 0.0f)
    t = 0;
  if (threadIdx.x < 32) {
    unsigned mask = __ballot_sync(0xffffffffu, t < 8);
    if (threadIdx.x < 8) {
      float v = x[threadIdx.x % n];
      for (int off = 4; off > 0; off /= 2)
        v += __shfl_down_sync(mask, v, off, 8);
      if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    }
  }
}
