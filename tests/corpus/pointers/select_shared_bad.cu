// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: no barrier: thread 1 writes s1[0] through p while thread 0 reads s1[0]
__global__ void k(int *o) {
  __requires(__len(o) >= 64);
  __shared__ int s1[32], s2[32];
  int *p = (threadIdx.x & 1) ? s1 : s2;
  p[threadIdx.x / 2] = 1;
  o[threadIdx.x] = s1[threadIdx.x / 2];
}
