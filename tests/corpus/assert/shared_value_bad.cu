// expect: refuted assert
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: unknown: values written to shared memory are not tracked through barriers (loaded values are abstract), so the failing assert cannot be confirmed
// note: in block 1 the shared value is 1
__global__ void owner(unsigned *out, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= nblocks);
  __shared__ unsigned who;
  if (threadIdx.x == 0)
    who = blockIdx.x;
  __syncthreads();
  __assert(who == 0);
  if (threadIdx.x == 0 && blockIdx.x < nblocks)
    out[blockIdx.x] = who;
}
