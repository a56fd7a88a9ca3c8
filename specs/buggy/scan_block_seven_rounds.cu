// ksynth:spec scan_block expect=equivalence
// ksynth:launch grid=(1) block=(256)
// Buggy twin of scan_block: 7 rounds reach back 127 elements only, so Y[t] for t >= 128 misses
// the first elements (and the result is read from the half the 7th round did not write).
// Hillis-Steele scan in one block, double-buffered in shared memory: step d reads half d % 2
// and writes the other half, with offset 2^d, for d = 0 .. 7.
__global__ void scan_block(const float *X, float *Y, int N) {
  __shared__ float buf[2][256];
  int t = threadIdx.x;
  buf[0][t] = t < N ? X[t] : 0.0f;
  __syncthreads();
  for (int d = 0; d < 7; ++d) {
    int off = 1 << d;
    float v = buf[d % 2][t];
    if (t >= off)
      v += buf[d % 2][t - off];
    buf[(d + 1) % 2][t] = v;
    __syncthreads();
  }
  if (t < N)
    Y[t] = buf[0][t];
}
