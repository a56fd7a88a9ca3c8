// expect: refuted bounds
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: clearing 8 bytes from out[63] writes out[64], past the declared 64 elements
__global__ void clear(float *out) {
  __requires(__len(out) >= 64);
  if (threadIdx.x == 63)
    memset(&out[threadIdx.x], 0, 2 * sizeof(float));
}
