// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a backward goto is a loop ksynth does not recognise: unsupported, so unknown
__global__ void k(int *out) {
  __requires(__len(out) >= 64);
  int i = 0;
again:
  out[threadIdx.x] = i;
  if (++i < 3)
    goto again;
}
