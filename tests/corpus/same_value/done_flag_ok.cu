// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void copy_and_mark(const int *in, int *out, int *done, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __requires(__len(done) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
  if (i == 0)
    done[0] = 1;
}
