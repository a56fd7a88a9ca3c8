// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: each thread clears its own float
__global__ void clear(float *out) {
  __requires(__len(out) >= 64);
  memset(&out[threadIdx.x], 0, sizeof(float));
}
