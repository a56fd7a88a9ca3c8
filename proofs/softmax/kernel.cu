// ksynth:launch grid=(R) block=(256)
// One block per row: a strided pass and a shared-memory tree for the max, the same for the
// sum of exponentials, then a strided pass writing the row.
__global__ void softmax(const float *X, float *Y, int R, int C) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int r = blockIdx.x;
  const float *x = X + r * C;
  float m = -3.402823466e+38f; // -FLT_MAX
  for (int c = t; c < C; c += blockDim.x)
    m = fmaxf(m, x[c]);
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
  for (int c = t; c < C; c += blockDim.x)
    sum += expf(x[c] - rowmax);
  red[t] = sum;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float denom = red[0];
  for (int c = t; c < C; c += blockDim.x)
    Y[r * C + c] = expf(x[c] - rowmax) / denom;
}
