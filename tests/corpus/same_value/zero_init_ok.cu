// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void block_histogram(int *out, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(nblocks <= 1u << 20);
  __requires(__len(out) >= 16 * nblocks);
  __shared__ int hist[16];
  if (threadIdx.x < 16)
    hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 16], 1);
  __syncthreads();
  if (threadIdx.x < 16 && blockIdx.x < nblocks)
    out[blockIdx.x * 16 + threadIdx.x] = hist[threadIdx.x];
}
