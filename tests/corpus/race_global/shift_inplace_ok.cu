// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void shift(float *a, float *b, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(b) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    b[i] = a[i + 1];
}
