// ksynth:spec kernelbench/27_selu expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: the negative branch omits scale: alpha (exp(x) - 1), plain ELU there.
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb27_selu(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    const float alpha = 1.6732632423543772848170429916717f;
    const float scale = 1.0507009873554804934193349852946f;
    Y[b * D + d] = x > 0.0f ? scale * x : alpha * (expf(x) - 1.0f);
  }
}
