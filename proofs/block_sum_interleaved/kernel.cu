// ksynth:launch grid=((N + 255) / 256) block=(256)
// Interleaved tree: in round s, threads at multiples of 2s add the cell s further on.
__global__ void block_sum(const float *X, float *Y, int N) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < N ? X[i] : 0.0f;
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (t % (2 * st) == 0)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0)
    Y[blockIdx.x] = s[0];
}
