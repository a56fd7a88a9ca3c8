// expect: refuted race
// args: --block 256 --checks race,barrier,assert
// note: thread 1 reads flags[blockIdx.x] while thread 0 of the same block writes it
__global__ void block_flag(int *flags, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    flags[blockIdx.x] = i;
  out[i] = flags[blockIdx.x];
}
