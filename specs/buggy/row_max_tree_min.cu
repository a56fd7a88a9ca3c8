// ksynth:spec row_max expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Buggy twin of row_max: the tree combines with fminf, the minimum of the partial maxima.
__global__ void row_max(const float *X, float *Y, int R, int C) {
  __shared__ float part[256];
  unsigned t = threadIdx.x;
  int r = blockIdx.x;
  float m = -3.402823466e+38f; // -FLT_MAX: below every finite float
  for (int c = t; c < C; c += blockDim.x)
    m = fmaxf(m, X[r * C + c]);
  part[t] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] = fminf(part[t], part[t + s]);
    __syncthreads();
  }
  if (t == 0)
    Y[r] = part[0];
}
