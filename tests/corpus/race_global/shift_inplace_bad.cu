// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: in-place shift: thread 0 reads a[1] while thread 1 writes a[1]
__global__ void shift(float *a, float *b, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(b) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    a[i] = a[i + 1];
}
