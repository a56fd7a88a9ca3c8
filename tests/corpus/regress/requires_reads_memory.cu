// expect: proven
// args: --block 64 --grid 1 --checks race
// note: regression (review): reads inside __requires state facts about the initial memory and are not accesses (it was refuted as a race with the atomics)
__global__ void k(int *c) {
  __requires(__len(c) >= 1);
  __requires(c[0] == 0);
  atomicAdd(c, 1);
}
