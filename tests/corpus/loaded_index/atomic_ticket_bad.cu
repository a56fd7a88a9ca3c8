// expect: refuted race
// args: --block 64 --grid 1 --checks race
// note: adding 0 hands every thread the same value: threads 0 and 1 both write out[*c]
// whatever *c holds (run thread 0 to its end, then thread 1)
__global__ void k(unsigned *c, int *out) {
  unsigned j = atomicAdd(c, 0u);
  out[j] = threadIdx.x;
}
