// ksynth:spec scan_block expect=equivalence
// ksynth:launch grid=(1) block=(256)
// Buggy twin of scan_block: the partner is one cell too close (t - off + 1), so windows overlap.
// Hillis-Steele scan in one block, double-buffered in shared memory: step d reads half d % 2
// and writes the other half, with offset 2^d, for d = 0 .. 7.
__global__ void scan_block(const float *X, float *Y, int N) {
  __shared__ float buf[2][256];
  int t = threadIdx.x;
  buf[0][t] = t < N ? X[t] : 0.0f;
  __syncthreads();
  for (int d = 0; d < 8; ++d) {
    int off = 1 << d;
    float v = buf[d % 2][t];
    if (t >= off)
      v += buf[d % 2][t - off + 1];
    buf[(d + 1) % 2][t] = v;
    __syncthreads();
  }
  if (t < N)
    Y[t] = buf[0][t];
}
