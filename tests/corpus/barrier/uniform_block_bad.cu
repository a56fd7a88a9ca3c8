// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the condition now depends on threadIdx: threads 128..255 of block 0 skip the barrier
__global__ void first_block_reverse(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  if (blockIdx.x == 0 && t < 128) {
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    if (t < n)
      out[t] = s[255 - t];
  }
}
