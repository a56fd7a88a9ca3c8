// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a union's fields share storage; field-by-field modelling would miss the race
// between u[t].i and u[t ^ 1].f, so ksynth refuses unions
union Bits {
  int i;
  float f;
};

__global__ void pun(Bits *u) {
  __requires(__len(u) >= 64);
  u[threadIdx.x].i = 1;
  float x = u[threadIdx.x ^ 1].f;
  (void)x;
}
