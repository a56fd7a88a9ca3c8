// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the written slot is the result of a call ksynth cannot see: a race or an
// out-of-bounds write depends on it, so the verdict is unknown, never proven
__device__ int nondet();

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  out[nondet()] = 1.0f;
}
