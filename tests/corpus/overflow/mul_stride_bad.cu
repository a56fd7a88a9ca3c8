// expect: refuted overflow
// args: --block 256 --checks race,barrier,overflow,assert
// note: i = 2^29 - 1, stride = 8: i * stride = 2^32 - 8 overflows int
__global__ void gather_strided(const float *in, float *out, int n, int stride) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1 << 29);
  __requires(stride >= 1);
  __requires(stride <= 8);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * stride];
}
