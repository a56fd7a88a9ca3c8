// ksynth:spec kernelbench/38_l1norm expect=equivalence
// ksynth:launch grid=(B) block=(256)
// Buggy twin of kb38_l1norm: each row is divided by the sum of its absolute values (the L1
// norm the name suggests); the model divides by their mean.
__global__ void kb38_l1norm(const float *X, float *Y, int B, int D) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int b = blockIdx.x;
  float s = 0.0f;
  for (int d = t; d < D; d += blockDim.x) {
    float v = X[b * D + d];
    s += v < 0.0f ? -v : v;
  }
  red[t] = s;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      red[t] += red[t + st];
    __syncthreads();
  }
  float m = red[0];
  for (int d = t; d < D; d += blockDim.x)
    Y[b * D + d] = X[b * D + d] / m;
}
