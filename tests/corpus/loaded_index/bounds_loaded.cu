// expect: unknown
// args: --block 256 --checks bounds
// note: a[idx[i]] is in bounds only if the loaded index is: nothing constrains idx values
__global__ void gather(const int *idx, const float *a, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(idx) >= n);
  __requires(__len(a) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[idx[i]];
}
