// expect: refuted race
// args: --checks race,barrier
// note: the host code sets `int threads = 64;`: two warps per block, and the second warp stores
// note: the cells thread 0 of the first reads (__syncwarp orders one warp only)
#include <cstdio>

__global__ void warp_sums(const float *in, float *out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  s[t % 32] = in[blockIdx.x * blockDim.x + t];
  __syncwarp();
  if (t == 0) {
    float acc = 0.0f;
    for (int i = 0; i < 32; ++i)
      acc += s[i];
    out[blockIdx.x] = acc;
  }
}

int main() {
  int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  int threads = 64;
  int blocks = n / threads;
  cudaMalloc(&out, blocks * sizeof(float));
  warp_sums<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  printf("%d blocks of %d\n", blocks, threads);
  return 0;
}
