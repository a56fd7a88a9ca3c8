// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds
// note: __popc parses but is not modelled: an index computed from it leaves bounds unknown
__global__ void countBits(int *out, const unsigned *x) {
  __requires(__len(out) >= 33 && __len(x) >= 64);
  out[__popc(x[threadIdx.x])] = 1;
}
