// expect: refuted race
// args: --block 256 --grid ,1,1 --checks race,barrier,bounds,overflow,assert
// note: the same program, its kernel also reading the next element: thread 1 writes y[1] while
// note: thread 0 reads it
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <iostream>
#include <vector>

#define CUDA_CHECK(call)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));          \
      exit(EXIT_FAILURE);                                                                    \
    }                                                                                        \
  } while (0)

__constant__ float coef[4];

__global__ void scale(float *y, const float *x, int n) {
  __requires(__len(y) >= n && __len(x) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = coef[i % 4] * sqrtf(fabsf(x[i])) + (i + 1 < n ? y[i + 1] : 0.0f);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *x = nullptr, *y = nullptr, c[4] = {1, 2, 3, 4};
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&y, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbol(coef, c, sizeof(c)));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  dim3 block(256), grid((n + block.x - 1) / block.x);
  cudaEventRecord(start);
  scale<<<grid, block>>>(y, x, n);
  CUDA_CHECK(cudaGetLastError());
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::cout << prop.name << ": " << ms << " ms" << std::endl;
  cudaFree(x);
  cudaFree(y);
  return 0;
}
