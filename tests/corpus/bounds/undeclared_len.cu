// expect: unknown
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: nothing declares how many elements a holds, so its bounds obligation is unknown
__global__ void clear(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.0f;
}
