// expect: refuted race
// args: --block 256 --checks race
// note: the race on a depends on loaded values (unknown), but b[threadIdx.x] races across
// note: blocks regardless of any loaded value (blocks 0 and 1, n >= 257)
__global__ void scatter_and_mark(const int *idx, float *a, float *b, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[idx[i]] = 1.0f;
    b[threadIdx.x] = 2.0f;
  }
}
