// ksynth:spec kernelbench/28_hardsigmoid expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: Keras' hard sigmoid, clamp(0.2 x + 0.5, 0, 1), not torch's relu6(x + 3) / 6 (slope 1/6).
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb28_hardsigmoid(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    Y[b * D + d] = fminf(fmaxf(0.2f * x + 0.5f, 0.0f), 1.0f);
  }
}
