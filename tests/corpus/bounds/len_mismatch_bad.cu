// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: out holds m elements but the guard only checks n (n = 2, m = 1: thread 1 writes out[1])
__global__ void copy_prefix(const float *in, float *out, int n, int m) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= m);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
