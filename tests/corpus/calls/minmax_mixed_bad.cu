// expect: refuted bounds
// args: --block 64 --grid 4 --checks race,bounds,overflow
// note: the twin of minmax_mixed_ok: max(int, unsigned) is CUDA's unsigned max, so a negative
// note: i - shift becomes a huge index instead of 0
__global__ void shiftLeft(float *out, const float *in, int n, int shift) {
  __requires(n >= 1 && n <= 4096 && shift >= 0 && shift <= 4096 && __len(out) >= n && __len(in) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[max(i - shift, 0u)];
}
