// ksynth:spec kernelbench/88_mingpt_new_gelu expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: x * x instead of x^3 inside the tanh.
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb88_mingpt_new_gelu(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[b * D + d];
    float cube = x * x;
    Y[b * D + d] = 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * cube)));
  }
}
