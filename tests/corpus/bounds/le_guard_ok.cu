// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void clear(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) == n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.0f;
}
