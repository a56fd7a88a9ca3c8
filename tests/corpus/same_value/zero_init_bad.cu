// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: every thread zeroes the whole histogram: all write 0 to hist[0] - a race all the same
__global__ void block_histogram(int *out, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(nblocks <= 1u << 20);
  __requires(__len(out) >= 16 * nblocks);
  __shared__ int hist[16];
  for (int k = 0; k < 16; k++)
    hist[k] = 0;
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 16], 1);
  __syncthreads();
  if (threadIdx.x < 16 && blockIdx.x < nblocks)
    out[blockIdx.x * 16 + threadIdx.x] = hist[threadIdx.x];
}
