// ksynth:launch grid=(B) block=(256)
// One block per row: strided sums of |x|, a shared-memory tree, then the row divided by the
// mean absolute value.
__global__ void kb38_l1norm(const float *X, float *Y, int B, int D) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int b = blockIdx.x;
  float s = 0.0f;
  for (int d = t; d < D; d += blockDim.x) {
    float v = X[b * D + d];
    s += fabsf(v);
  }
  red[t] = s;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float m = red[0] / D;
  for (int d = t; d < D; d += blockDim.x)
    Y[b * D + d] = X[b * D + d] / m;
}
