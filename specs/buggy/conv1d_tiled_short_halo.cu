// ksynth:spec conv1d expect=equivalence
// ksynth:launch grid=((N+255)/256) block=(256)
// Bug: the block loads 256 + K - 2 inputs: its last output's last tap reads a cell never written.
__global__ void conv1d_tiled(const float *__restrict__ X, const float *__restrict__ W, float *__restrict__ Y, int N,
                             int K) {
  __shared__ float w[1024];
  __shared__ float xs[256 + 1023];
  int start = blockIdx.x * 256;
  for (int k = threadIdx.x; k < K; k += 256)
    w[k] = W[k];
  for (int t = threadIdx.x; t < 256 + K - 2; t += 256)
    xs[t] = start + t < N ? X[start + t] : 0.0f;
  __syncthreads();
  int i = start + threadIdx.x;
  if (i < N - K + 1) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += xs[threadIdx.x + k] * w[k];
    Y[i] = acc;
  }
}
