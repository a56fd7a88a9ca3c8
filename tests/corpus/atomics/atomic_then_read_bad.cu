// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: thread 0 reads total with a plain load while thread 1 may still be adding atomically:
// note: an atomic and a non-atomic access do race
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
  if (threadIdx.x == 0 && blockIdx.x < nblocks)
    out[blockIdx.x] = total;
}
