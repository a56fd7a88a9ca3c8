// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: each block reverses its own 256-element segment in place; without the barrier
// note: thread 0 writes a[base] while thread 255 reads it
__global__ void reverse_segments(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  float v = 0.0f;
  if (base + 255 - t < n)
    v = a[base + 255 - t];
  if (base + t < n)
    a[base + t] = v;
}
