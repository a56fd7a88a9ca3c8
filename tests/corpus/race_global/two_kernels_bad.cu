// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: two kernels in one file; only copy_back races: threads 0 and 256 both write b[0]
// note: (block 0 and block 1, needs n >= 257 and a grid of at least 2 blocks)
__global__ void scale(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 2.0f * a[i];
}

__global__ void copy_back(const float *a, float *b, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(b) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i % 256] = a[i];
}
