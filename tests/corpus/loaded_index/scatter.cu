// expect: unknown
// args: --block 256 --checks race
// note: a[idx[i]]: whether two threads write the same cell depends only on loaded values
__global__ void scatter(const int *idx, float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[idx[i]] = 1.0f;
}
