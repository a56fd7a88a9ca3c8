// ksynth:launch grid=((D2 + 255) / 256, B) block=(256)
// One thread per output element (b, j): a running argmin down dim 1; a strictly smaller value
// replaces the best, so the first of equal minima is kept.
__global__ void kb52_argmin_dim(const float *X, long long *I, int B, int D1, int D2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (j < D2) {
    long long best = 0;
    float bv = X[b * D1 * D2 + j];
    for (int k = 1; k < D1; ++k) {
      float v = X[(b * D1 + k) * D2 + j];
      if (v < bv) {
        bv = v;
        best = k;
      }
    }
    I[b * D2 + j] = best;
  }
}
