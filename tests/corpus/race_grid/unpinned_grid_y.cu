// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: no --grid and no precondition on gridDim: the grid is symbolic in all three
// note: dimensions, so blocks (0,0) and (0,1) compute the same i and both write out[i].
// note: the other corpus kernels pin the grid dimensions they do not use (or pass --grid)
__global__ void copy(const float *in, float *out, int n) {
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
