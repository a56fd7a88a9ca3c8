// expect: proven
// args: --block 256 --checks race,barrier,assert
// note: sizes irrelevant here: bounds not checked
__global__ void block_flag(int *flags, int *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    flags[blockIdx.x] = i;
  __syncthreads();
  out[i] = flags[blockIdx.x];
}
