// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void reverse_block(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  if (i < n)
    out[i] = s[255 - t];
}
