// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: inside a block the barrier separates reads from writes, but thread 255 of block 0
// note: reads a[256] while thread 0 of block 1 writes it: blocks never synchronise
__global__ void shift_left(float *a, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i + 1 < n)
    v = a[i + 1];
  __syncthreads();
  if (i + 1 < n)
    a[i] = v;
}
