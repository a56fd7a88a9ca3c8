// ksynth:spec row_max expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Buggy twin of row_max: the running max starts at 0, so a row of negative numbers gets 0.
__global__ void row_max(const float *X, float *Y, int R, int C) {
  __shared__ float part[256];
  unsigned t = threadIdx.x;
  int r = blockIdx.x;
  float m = 0.0f;
  for (int c = t; c < C; c += blockDim.x)
    m = fmaxf(m, X[r * C + c]);
  part[t] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] = fmaxf(part[t], part[t + s]);
    __syncthreads();
  }
  if (t == 0)
    Y[r] = part[0];
}
