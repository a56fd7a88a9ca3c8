// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: standalone safe kernel
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(b) >= n);
  __requires(__len(c) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
