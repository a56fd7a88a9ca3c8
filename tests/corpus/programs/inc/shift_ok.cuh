// The kernel of programs/included_kernel_ok.cu, kept in a header as many projects do.
__global__ void shift(float *out, const float *in, int n) {
  __requires(__len(out) >= n && __len(in) > n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1];
}
