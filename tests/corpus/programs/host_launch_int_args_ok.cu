// expect: proven
// args: --checks race,barrier --host-args
// note: with --host-args, the launch and the size come from the host code: n = 1000 (an int never changed),
// note: blocks = (n + threads - 1) / threads = 4 of 256 threads; at that size the grid-stride
// note: loop visits each i < 1000 once and out[i % 1000] is out[i]: race free
#include <cstdio>

__global__ void fold(const float *in, float *out, int n) {
  if (n > (1 << 20))
    return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i % 1000] = in[i];
}

int main() {
  const int threads = 256;
  int n = 1000;
  int blocks = (n + threads - 1) / threads;
  float *in, *out;
  cudaMalloc(&in, 2 * n * sizeof(float));
  cudaMalloc(&out, 1000 * sizeof(float));
  fold<<<blocks, threads>>>(in, out, n);
  fold<<<blocks, threads>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
