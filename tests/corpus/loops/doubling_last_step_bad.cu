// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: the step with s == 1024, the last one a loop bounded by s <= blockDim.x can make
// note: (blockDim.x = 1024), has every thread store out[0]: the bound on the number of
// note: steps must keep it
__global__ void last_step(int *out) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= 1);
  for (unsigned s = 1; s <= blockDim.x; s *= 2) {
    if (s == 1024)
      out[0] = threadIdx.x;
  }
}
