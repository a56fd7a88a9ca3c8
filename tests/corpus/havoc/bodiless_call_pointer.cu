// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a function without a body is handed a pointer: it could write anything through it
__device__ void fill(float *p);

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  fill(out);
}
