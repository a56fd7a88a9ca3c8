// Shared helpers of a small GPT-style training codebase, written in the way such projects
// write them (error-check macros, library handles, bf16 storage, a warp reduction). A test
// input of ksynth: tests/projects/run_projects.py checks the verdict of every kernel.
#pragma once
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <cublasLt.h>

#define WARP_SIZE 32

typedef __nv_bfloat16 floatX;

template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

inline void cuda_check(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    fprintf(stderr, "[CUDA ERROR] at %s:%d: %s\n", file, line, cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) cuda_check((err), __FILE__, __LINE__)

inline void cublas_check(cublasStatus_t status, const char *file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "[cuBLAS ERROR] %d at %s:%d\n", (int)status, file, line);
    exit(EXIT_FAILURE);
  }
}
#define cublasCheck(status) cublas_check((status), __FILE__, __LINE__)

static cublasHandle_t cublas_handle;
static cublasLtHandle_t cublaslt_handle;
static size_t cublaslt_workspace_size = 32 * 1024 * 1024;
static void *cublaslt_workspace = NULL;

inline void setup_main() {
  srand(0);
  cublasCheck(cublasCreate(&cublas_handle));
  cublasCheck(cublasLtCreate(&cublaslt_handle));
  cublasCheck(cublasSetMathMode(cublas_handle, CUBLAS_TF32_TENSOR_OP_MATH));
  cudaCheck(cudaMalloc(&cublaslt_workspace, cublaslt_workspace_size));
}

inline float *make_random_float(size_t n) {
  float *arr = (float *)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    arr[i] = ((float)rand() / RAND_MAX) * 2.0f - 1.0f;
  return arr;
}

template <class Kernel, class... Args>
float benchmark_kernel(int repeats, Kernel kernel, Args &&...args) {
  cudaEvent_t start, stop;
  cudaCheck(cudaEventCreate(&start));
  cudaCheck(cudaEventCreate(&stop));
  cudaCheck(cudaEventRecord(start, nullptr));
  for (int i = 0; i < repeats; i++)
    kernel(std::forward<Args>(args)...);
  cudaCheck(cudaEventRecord(stop, nullptr));
  cudaCheck(cudaEventSynchronize(stop));
  float ms = 0.f;
  cudaCheck(cudaEventElapsedTime(&ms, start, stop));
  return ms / repeats;
}

// The sum of v over the warp, in every lane.
__device__ inline float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
