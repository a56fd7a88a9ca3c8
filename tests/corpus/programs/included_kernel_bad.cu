// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: the kernel in the header (inc/shift_bad.cuh) shifts in place: a race between
// note: neighbouring threads
#include "inc/shift_bad.cuh"

int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, (n + 1) * sizeof(float));
  cudaMalloc(&b, (n + 1) * sizeof(float));
  shift<<<(n + 127) / 128, 128>>>(a, b, n);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
