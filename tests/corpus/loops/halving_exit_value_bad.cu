// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: a halving loop from blockDim.x runs at most 11 times; its count c after the loop is
// note: 11 only for blockDim.x >= 1024, where every thread stores out[0]
__global__ void exit_count(int *out) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= 1);
  int c = 0;
  for (unsigned s = blockDim.x; s > 0; s >>= 1)
    c++;
  if (c == 11)
    out[0] = threadIdx.x;
}
