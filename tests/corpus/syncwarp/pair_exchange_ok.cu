// expect: proven
// args: --block 32 --checks race,barrier,bounds,overflow,assert
// note: block = one warp: __syncwarp() orders all threads that exchange
__global__ void swap_pairs(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[32];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncwarp();
  if (i < n)
    out[i] = s[t ^ 1];
}
