// ksynth:launch grid=(B) block=(256)
// One block per row: a strided pass and a shared-memory tree for the max, the same for the
// sum of exponentials, then a strided pass writing the row.
__global__ void kb23_softmax(const float *X, float *Y, int B, int D) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int b = blockIdx.x;
  const float *x = X + b * D;
  float m = -3.402823466e+38f; // -FLT_MAX
  for (int d = t; d < D; d += blockDim.x)
    m = fmaxf(m, x[d]);
  red[t] = m;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] = fmaxf(red[t], red[t + st]);
    __syncthreads();
  }
  float rowmax = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int d = t; d < D; d += blockDim.x)
    sum += expf(x[d] - rowmax);
  red[t] = sum;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float denom = red[0];
  for (int d = t; d < D; d += blockDim.x)
    Y[b * D + d] = expf(x[d] - rowmax) / denom;
}
