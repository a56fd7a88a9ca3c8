// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: every thread of the grid stores 1 to done[0]: a same-value write-write race
__global__ void copy_and_mark(const int *in, int *out, int *done, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __requires(__len(done) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
  done[0] = 1;
}
