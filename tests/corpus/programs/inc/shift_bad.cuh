// The kernel of programs/included_kernel_bad.cu: it shifts in place, so thread i reads
// out[i + 1] while thread i + 1 writes it.
__global__ void shift(float *out, const float *in, int n) {
  __requires(__len(out) > n && __len(in) > n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = out[i + 1] + in[i];
}
