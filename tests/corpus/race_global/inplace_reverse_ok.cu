// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: __syncthreads() orders global accesses of threads of the same block;
// note: blocks touch disjoint segments
__global__ void reverse_segments(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  float v = 0.0f;
  if (base + 255 - t < n)
    v = a[base + 255 - t];
  __syncthreads();
  if (base + t < n)
    a[base + t] = v;
}
