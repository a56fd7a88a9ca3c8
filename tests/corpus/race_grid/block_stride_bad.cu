// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: stride blockDim.x instead of the grid size: thread 0 of block 1 touches a[256],
// note: which thread 0 of block 0 also touches in its second iteration (n >= 257)
__global__ void scale(float *a, unsigned n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1u << 31);
  __requires(__len(a) >= n);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    a[i] = 2.0f * a[i];
}
