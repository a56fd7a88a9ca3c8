// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: a warp sum with __activemask() as the mask: the lanes it names are those converged with
// note: the caller at the call, which CUDA does not promise to be more than the caller itself;
// note: lane 0 then reads lane 16, which the mask need not name
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(__activemask(), v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
