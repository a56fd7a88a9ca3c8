// GELU forward and backward over bf16 activations, as a training codebase writes them: a CPU
// reference, the kernels, launchers, a main that times them. Checked by
// tests/projects/run_projects.py (the expect-kernel lines are its expectations).
// expect-kernel: gelu_forward_kernel proven
// expect-kernel: gelu_backward_kernel<256> proven
// expect-kernel: gelu_forward_unguarded refuted bounds
#include "common.h"
#include <cmath>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

void gelu_forward_cpu(float *out, const float *inp, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
  }
}

__global__ void __launch_bounds__(512) gelu_forward_kernel(floatX *out, const floatX *inp, int N) {
#ifdef __KSYNTH__
  __requires(__len(out) >= N && __len(inp) >= N);
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float x = (float)inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = (floatX)(0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube))));
  }
}

// The same over a grid-stride loop, with the block size a template argument.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) gelu_backward_kernel(floatX *dinp, const floatX *inp, const floatX *dout,
                                                              int N) {
#ifdef __KSYNTH__
  // Below 2^30 elements, so that i += gridDim.x * BLOCK cannot wrap around.
  __requires(N <= (1 << 30) && __len(dinp) >= N && __len(inp) >= N && __len(dout) >= N);
#endif
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < N; i += gridDim.x * BLOCK) {
    float x = (float)inp[i];
    float cube = 0.044715f * x * x * x;
    float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
    float tanh_out = tanhf(tanh_arg);
    float sech_out = 1.0f - tanh_out * tanh_out;
    float local_grad = 0.5f * (1.0f + tanh_out) +
                       x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] = (floatX)(local_grad * (float)dout[i]);
  }
}

// A first version that forgot the guard: the last block runs past the end.
__global__ void gelu_forward_unguarded(floatX *out, const floatX *inp, int N) {
#ifdef __KSYNTH__
  __requires(__len(out) >= N && __len(inp) >= N);
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (float)inp[i];
  out[i] = (floatX)(0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + 0.044715f * x * x * x))));
}

void gelu_forward(floatX *out, const floatX *inp, int N, int block_size) {
  int grid_size = ceil_div(N, block_size);
  gelu_forward_kernel<<<grid_size, block_size>>>(out, inp, N);
  cudaCheck(cudaGetLastError());
}

void gelu_backward(floatX *dinp, const floatX *inp, const floatX *dout, int N) {
  gelu_backward_kernel<256><<<132 * 4, 256>>>(dinp, inp, dout, N);
  cudaCheck(cudaGetLastError());
}

int main(int argc, char **argv) {
  setup_main();
  int B = 8, T = 1024, C = 768, N = B * T * C;
  float *inp = make_random_float(N);
  float *out = (float *)malloc(N * sizeof(float));
  gelu_forward_cpu(out, inp, N);
  floatX *d_out, *d_inp, *d_dinp;
  cudaCheck(cudaMalloc(&d_out, N * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_inp, N * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_dinp, N * sizeof(floatX)));
  int block_sizes[] = {128, 256, 512};
  for (int block_size : block_sizes) {
    float ms = benchmark_kernel(100, gelu_forward, d_out, d_inp, N, block_size);
    printf("block_size %4d | time %.4f ms\n", block_size, ms);
  }
  gelu_backward(d_dinp, d_inp, d_out, N);
  gelu_forward_unguarded<<<ceil_div(N, 256), 256>>>(d_out, d_inp, N);
  cudaCheck(cudaFree(d_out));
  cudaCheck(cudaFree(d_inp));
  cudaCheck(cudaFree(d_dinp));
  free(inp);
  free(out);
  return 0;
}
