// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: no barrier inside the loop: in iteration st=64 thread 0 reads s[64], which thread 64
// note: wrote in iteration st=128 with no barrier in between
__global__ void block_sum(const float *in, float *partial, int n, unsigned nblocks) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(partial) >= nblocks);
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
  }
  if (t == 0 && blockIdx.x < nblocks)
    partial[blockIdx.x] = s[0];
}
