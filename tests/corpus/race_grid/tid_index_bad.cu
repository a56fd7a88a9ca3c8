// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: indexes by threadIdx.x only: thread 0 of block 0 and of block 1 both write out[0]
// note: (no race inside one block; needs gridDim.x >= 2 and n >= 257)
__global__ void copy(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[threadIdx.x] = in[i];
}
