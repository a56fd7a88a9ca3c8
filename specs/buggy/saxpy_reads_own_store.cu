// ksynth:spec saxpy expect=equivalence
// ksynth:launch grid=((N + 127) / 128) block=(128)
// Buggy twin of saxpy: stores a*x first and then reads y back, which is no longer the old y.
__global__ void saxpy(int N, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    y[i] = a * x[i];
    y[i] = y[i] + y[i];
  }
}
