// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: the kernel is in a header of the project (inc/shift_ok.cuh); the host code here
// note: launches it with 128 threads in a 1-D grid
#include "inc/shift_ok.cuh"

int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, (n + 1) * sizeof(float));
  cudaMalloc(&b, (n + 1) * sizeof(float));
  shift<<<(n + 127) / 128, 128>>>(a, b, n);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
