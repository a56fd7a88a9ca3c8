// expect: refuted race
// args: --checks race,barrier --host-args
// note: with --host-args, the two launches pass n and 2 * n: n is not one constant, so it stays symbolic; with
// note: a larger n (the witness: 4096) two threads store one cell of out (i and i + 3000)
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
  fold<<<blocks, threads>>>(in, out, 2 * n);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
