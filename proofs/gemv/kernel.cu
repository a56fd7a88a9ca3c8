// ksynth:launch grid=(M) block=(128)
// One block per row: strided dot product, shared-memory tree reduction.
__global__ void gemv(const float *A, const float *x, float *y, int M, int N) {
  __shared__ float red[128];
  unsigned t = threadIdx.x;
  int i = blockIdx.x;
  float acc = 0.0f;
  for (int j = t; j < N; j += blockDim.x)
    acc += A[i * N + j] * x[j];
  red[t] = acc;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  if (t == 0)
    y[i] = red[0];
}
