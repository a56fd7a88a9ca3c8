// ksynth:spec kernelbench/29_softplus expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: the threshold test is reversed: returns x below 20 and log(1 + exp(x)) above it.
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb29_softplus(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    Y[b * D + d] = x < 20.0f ? x : logf(1.0f + expf(x));
  }
}
