// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: atomics never race with each other
__global__ void count_elements(int *count, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(count) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&count[0], 1);
}
