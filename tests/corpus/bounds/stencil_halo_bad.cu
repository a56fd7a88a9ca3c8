// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: no lower guard: thread 0 reads in[-1]
__global__ void laplace(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i - 1] - 2.0f * in[i] + in[i + 1];
}
