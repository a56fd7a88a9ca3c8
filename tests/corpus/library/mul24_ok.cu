// expect: proven
// args: --block 1024 --grid 1024 --checks race
// note: block and thread indices fit in 24 bits, so __umul24 is the exact product
__global__ void k(int *out) {
  unsigned i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  out[i] = 1;
}
