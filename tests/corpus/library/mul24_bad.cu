// expect: refuted race
// args: --block 1024 --grid 32768 --checks race
// note: the global index reaches 2^25, but __umul24 keeps only its low 24 bits: thread 0 of
// block 0 and thread 0 of block 16384 both write out[0]
__global__ void k(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[__umul24(i, 1u)] = 1;
}
