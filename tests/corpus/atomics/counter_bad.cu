// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: plain read-modify-write of count[0] by every thread (threads 0 and 1, n >= 2)
__global__ void count_elements(int *count, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(count) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    count[0] += 1;
}
