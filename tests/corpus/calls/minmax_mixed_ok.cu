// expect: proven
// args: --block 64 --grid 4 --checks race,bounds,overflow
// note: max of two ints is an int: max(i - shift, 0) stays within the array
__global__ void shiftLeft(float *out, const float *in, int n, int shift) {
  __requires(n >= 1 && n <= 4096 && shift >= 0 && shift <= 4096 && __len(out) >= n && __len(in) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[max(i - shift, 0)];
}
