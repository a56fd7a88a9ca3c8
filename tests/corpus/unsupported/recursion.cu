// expect: unknown
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: a histogram bin computed by a recursive device function (floor(log2(t + 1)) <= 8,
// note: so it is in bounds, but recursion is not modelled)
__device__ int ilog2(int x) {
  return x <= 1 ? 0 : 1 + ilog2(x / 2);
}

__global__ void log_histogram(int *out, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(nblocks <= 1u << 20);
  __requires(__len(out) >= 9 * nblocks);
  __shared__ int hist[9];
  if (threadIdx.x < 9)
    hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[ilog2(threadIdx.x + 1)], 1);
  __syncthreads();
  if (threadIdx.x < 9 && blockIdx.x < nblocks)
    out[blockIdx.x * 9 + threadIdx.x] = hist[threadIdx.x];
}
