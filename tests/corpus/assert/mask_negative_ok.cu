// expect: proven
// args: --block 4 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: masks of negative values follow two's complement: x & 3 is in [0, 3] for every x,
// and x & -4 clears exactly those bits
__global__ void k(int *o, int x) {
  __requires(__len(o) >= 4);
  __assert((x & 3) >= 0 && (x & 3) <= 3);
  __assert((x & -4) == x - (x & 3));
  o[(int)threadIdx.x & 3] = x & 0;
}
