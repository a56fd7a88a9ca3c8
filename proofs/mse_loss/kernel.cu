// ksynth:launch grid=(1) block=(256)
// One block: strided partial sums, a shared-memory tree, thread 0 writes the mean.
__global__ void mse_loss(const float *P, const float *T, float *L, int N) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (int i = t; i < N; i += blockDim.x) {
    float d = P[i] - T[i];
    acc += d * d;
  }
  red[t] = acc;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  if (t == 0)
    L[0] = red[0] / N;
}
