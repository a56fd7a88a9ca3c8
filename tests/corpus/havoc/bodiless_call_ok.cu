// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: nondet() has no body: its result only chooses whether a thread writes its own slot
__device__ int nondet();

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  if (nondet())
    out[threadIdx.x] = 1.0f;
}
