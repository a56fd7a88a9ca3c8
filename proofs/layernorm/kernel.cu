// ksynth:launch grid=(R) block=(256)
// One block per row, two reductions (mean, then variance) through one shared buffer.
__global__ void layernorm(const float *X, const float *G, const float *B, float *Y, int R, int C, float eps) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  const float *x = X + blockIdx.x * C;
  float s = 0.0f;
  for (int c = t; c < C; c += blockDim.x)
    s += x[c];
  red[t] = s;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float mean = red[0] / C;
  __syncthreads();
  float v = 0.0f;
  for (int c = t; c < C; c += blockDim.x) {
    float d = x[c] - mean;
    v += d * d;
  }
  red[t] = v;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float inv = rsqrtf(red[0] / C + eps);
  for (int c = t; c < C; c += blockDim.x)
    Y[blockIdx.x * C + c] = (x[c] - mean) * inv * G[c] + B[c];
}
