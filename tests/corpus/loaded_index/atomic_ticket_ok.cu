// expect: proven
// args: --block 64 --grid 1 --checks race
// note: the value atomicAdd returns is only stored, each thread to its own slot
__global__ void k(unsigned *c, int *out) {
  unsigned j = atomicAdd(c, 0u);
  out[threadIdx.x] = j;
}
