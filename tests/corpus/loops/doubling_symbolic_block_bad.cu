// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: twin of doubling_symbolic_block_ok without the barrier in the loop: thread 0 reads
// note: s[2] in the second step while thread 2 may still write it in the first
__global__ void block_sum(const float *in, float *partial, int n) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(partial) >= gridDim.x);
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (t % (2 * st) == 0 && t + st < blockDim.x)
      s[t] += s[t + st];
  }
  __syncthreads();
  if (t == 0)
    partial[blockIdx.x] = s[0];
}
