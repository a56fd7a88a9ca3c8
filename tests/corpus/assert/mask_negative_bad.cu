// expect: refuted assert
// args: --block 4 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: x & 3 equals x only for 0 <= x <= 3: x = -1 gives 3
__global__ void k(int *o, int x) {
  __requires(__len(o) >= 4);
  __requires(x <= 3);
  __assert((x & 3) == x);
  o[(int)threadIdx.x & 3] = x & 0;
}
