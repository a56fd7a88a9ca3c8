// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: the interleaved tree over a symbolic block: s doubles while s < blockDim.x <= 1024,
// note: so the loop runs at most 10 times (the bound ksynth takes from the test's ranges)
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
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = s[0];
}
