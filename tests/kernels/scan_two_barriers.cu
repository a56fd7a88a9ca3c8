// ksynth:launch grid=(1) block=(256)
// A correct in-place Hillis-Steele scan for specs/scan_block.smt with two barriers per round:
// each thread reads its partner into a register, all wait, then add. The symbolic prover does
// not recognise this shape (its reads and its store are in different barrier intervals), so
// the verdict is BOUNDED: the tests use it as their example of a correct kernel that is
// proven only up to a size.
__global__ void scan_block(const float *X, float *Y, int N) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  buf[t] = t < N ? X[t] : 0.0f;
  __syncthreads();
  for (int off = 1; off < 256; off *= 2) {
    float v = t >= off ? buf[t - off] : 0.0f;
    __syncthreads();
    buf[t] += v;
    __syncthreads();
  }
  if (t < N)
    Y[t] = buf[t];
}
