// expect: proven
// args: --block 256 --checks race
// note: standalone safe kernel: loaded indices are only read through, each thread writes its own out[i]
__global__ void gather(const int *idx, const float *a, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[idx[i]];
}
