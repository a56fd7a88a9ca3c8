// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb27_selu(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    const float alpha = 1.6732632423543772848170429916717f;
    const float scale = 1.0507009873554804934193349852946f;
    // scale * (alpha * ...): written (scale * alpha) * ..., the equivalence proof stays unknown
    // (the product of two float literals matches no spec constant).
    Y[b * D + d] = x > 0.0f ? scale * x : scale * (alpha * (expf(x) - 1.0f));
  }
}
