// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void copy_half(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 2 == 0)
    out[i / 2] = in[i / 2];
}
