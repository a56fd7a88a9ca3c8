// expect: refuted assert
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: block has 256 threads: thread 128 violates the assertion
__global__ void fill(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= n);
  __assert(threadIdx.x < 128);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}
