// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void quarter(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 4);
  __requires(__len(out) >= n);
  int q = n / 4;
  __assert(q >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < q)
    out[i] = 0.0f;
}
