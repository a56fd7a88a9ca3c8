// ksynth:launch grid=(R) block=(256)
// One block per row: strided sum of squares, shared-memory tree, then the scaled row.
__global__ void rmsnorm(const float *X, const float *G, float *Y, int R, int C, float eps) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int r = blockIdx.x;
  float ss = 0.0f;
  for (int c = t; c < C; c += blockDim.x) {
    float v = X[r * C + c];
    ss += v * v;
  }
  red[t] = ss;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float inv = rsqrtf(red[0] / C + eps);
  for (int c = t; c < C; c += blockDim.x)
    Y[r * C + c] = X[r * C + c] * inv * G[c];
}
