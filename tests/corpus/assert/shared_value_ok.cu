// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: unknown: values written to shared memory are not tracked through barriers, so the assert cannot be proven
// note: needs the value stored by thread 0 to flow through shared memory after the barrier
__global__ void owner(unsigned *out, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= nblocks);
  __shared__ unsigned who;
  if (threadIdx.x == 0)
    who = blockIdx.x;
  __syncthreads();
  __assert(who == blockIdx.x);
  if (threadIdx.x == 0 && blockIdx.x < nblocks)
    out[blockIdx.x] = who;
}
