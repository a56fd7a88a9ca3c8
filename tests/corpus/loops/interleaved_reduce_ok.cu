// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void block_sum(const float *in, float *partial, int n, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(partial) >= nblocks);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int st = 1; st < 256; st *= 2) {
    if (t % (2 * st) == 0)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0 && blockIdx.x < nblocks)
    partial[blockIdx.x] = s[0];
}
