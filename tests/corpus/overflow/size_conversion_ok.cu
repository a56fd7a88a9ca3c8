// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void clear(float *a, unsigned len) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(len <= 0x7fffffffu);
  __requires(__len(a) >= len);
  int n = len;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.0f;
}
