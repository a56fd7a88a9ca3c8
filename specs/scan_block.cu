// ksynth:launch grid=(1) block=(256)
// Hillis-Steele scan in one block, double-buffered in shared memory; 8 steps of offset 2^d.
__global__ void scan_block(const float *X, float *Y, int N) {
  __shared__ float buf[2][256];
  int t = threadIdx.x;
  buf[0][t] = t < N ? X[t] : 0.0f;
  __syncthreads();
  int cur = 0;
  for (int d = 0; d < 8; ++d) {
    int off = 1 << d;
    float v = buf[cur][t];
    if (t >= off)
      v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (t < N)
    Y[t] = buf[cur][t];
}
