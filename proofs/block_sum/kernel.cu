// ksynth:launch grid=((N + 255) / 256) block=(256)
// Block tree reduction in shared memory; out-of-range lanes contribute 0.
__global__ void block_sum(const float *X, float *Y, int N) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < N ? X[i] : 0.0f;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0)
    Y[blockIdx.x] = s[0];
}
