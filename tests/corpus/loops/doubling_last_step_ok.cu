// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: safe twin of doubling_last_step_bad: only thread 0 stores out[0]
__global__ void last_step(int *out) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= 1);
  for (unsigned s = 1; s <= blockDim.x; s *= 2) {
    if (s == 1024)
      if (threadIdx.x == 0)
      out[0] = 1;
  }
}
