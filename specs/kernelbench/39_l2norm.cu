// ksynth:launch grid=(B) block=(256)
// One block per row: strided sums of squares, a shared-memory tree, then the row divided by
// the square root of the total.
__global__ void kb39_l2norm(const float *X, float *Y, int B, int D) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int b = blockIdx.x;
  float s = 0.0f;
  for (int d = t; d < D; d += blockDim.x) {
    float v = X[b * D + d];
    s += v * v;
  }
  red[t] = s;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float n = sqrtf(red[0]);
  for (int d = t; d < D; d += blockDim.x)
    Y[b * D + d] = X[b * D + d] / n;
}
