// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// One thread per output element (b, j): a running min down dim 1, starting at its first element.
__global__ void kb53_min_dim(const float *X, float *Y, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    float m = X[b * D1 * D2 + j];
    for (int k = 1; k < D1; ++k)
      m = fminf(m, X[(b * D1 + k) * D2 + j]);
    Y[b * D2 + j] = m;
  }
}
