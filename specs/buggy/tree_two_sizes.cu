// ksynth:spec tree_two_sizes expect=equivalence
// Found by review: two trees of 256 and 64 cells over the same block-uniform value once shared one cached sum (both read as 256 cells).
// ksynth:launch grid=(N) block=(256)
// Two trees over cells holding the same block-uniform value: 256 cells and 64 cells.
// Y[b] = 256 X[b] + 64 X[b] = 320 X[b]; the (wrong) spec claims 512 X[b].
__global__ void tree_cache(const float *X, float *Y, int N) {
  __shared__ float a[256];
  __shared__ float c[256];
  unsigned t = threadIdx.x;
  a[t] = X[blockIdx.x];
  c[t] = X[blockIdx.x];
  __syncthreads();
  for (unsigned st = 128; st > 0; st >>= 1) {
    if (t < st)
      a[t] += a[t + st];
    __syncthreads();
  }
  for (unsigned st = 32; st > 0; st >>= 1) {
    if (t < st)
      c[t] += c[t + st];
    __syncthreads();
  }
  if (t == 0)
    Y[blockIdx.x] = a[0] + c[0];
}
