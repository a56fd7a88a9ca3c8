// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: barrier under a block-uniform condition (blockIdx.x == 0): all threads of a block agree
__global__ void first_block_reverse(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  if (blockIdx.x == 0) {
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    if (t < n)
      out[t] = s[255 - t];
  }
}
