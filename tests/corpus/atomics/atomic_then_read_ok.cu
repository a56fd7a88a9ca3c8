// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void count_block(int *out, int n, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= nblocks);
  __shared__ int total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  if (i < n)
    atomicAdd(&total, 1);
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x < nblocks)
    out[blockIdx.x] = total;
}
