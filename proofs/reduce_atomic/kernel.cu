// ksynth:launch grid=((N + 255) / 256) block=(256)
// Per-block tree reduction in shared memory, then one atomicAdd per block.
__global__ void reduce_atomic(const float *X, float *S, int N) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  red[t] = i < N ? X[i] : 0.0f;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(S, red[0]);
}
