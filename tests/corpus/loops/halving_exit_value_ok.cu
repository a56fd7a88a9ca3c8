// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: safe twin of halving_exit_value_bad: only thread 0 stores out[0]
__global__ void exit_count(int *out) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= 1);
  int c = 0;
  for (unsigned s = blockDim.x; s > 0; s >>= 1)
    c++;
  if (c == 11)
    if (threadIdx.x == 0)
      out[0] = 1;
}
