// ksynth:spec kernelbench/22_tanh expect=equivalence
// ksynth:launch grid=((D + 255) / 256, B) block=(256)
// Bug: reads X[d], row 0, for every row (the row offset b * D is missing on the load).
// One thread per element: column d from the x axis, row b from blockIdx.y.
__global__ void kb22_tanh(const float *X, float *Y, int B, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (d < D) {
    float x = X[d];
    Y[b * D + d] = tanhf(x);
  }
}
