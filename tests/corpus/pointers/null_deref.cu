// expect: unknown
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: with which == 0, p is still nullptr when it is written through: an access through a
// note: pointer to no array is never proven safe
__global__ void k(float *a, int n, int which) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(a) >= n);
  float *p = nullptr;
  if (which)
    p = a;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}
