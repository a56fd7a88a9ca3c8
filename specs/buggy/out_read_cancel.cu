// ksynth:spec copy expect=equivalence
// ksynth:launch grid=(1) block=(N)
// Reads its output before writing it (stale or poisoned memory) and cancels the value.
__global__ void copy(int N, const float *a, float *y) {
  int i = threadIdx.x;
  float g = y[i];
  y[i] = a[i] + (g - g);
}
