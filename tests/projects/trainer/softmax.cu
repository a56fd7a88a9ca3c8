// Row softmax, one block per row: with a warp-shuffle block reduction written by hand, and
// with CUB's BlockReduce. Checked by tests/projects/run_projects.py.
// expect-kernel: softmax_forward_shfl proven
// expect-kernel: softmax_forward_cub unknown cub::BlockReduce
#include "common.h"
#include <cub/cub.cuh>

// One block of 256 threads per row: the row's max and sum through warp shuffles, the warps'
// partial results in shared memory.
__global__ void __launch_bounds__(256) softmax_forward_shfl(float *out, const float *inp, int N, int C) {
#ifdef __KSYNTH__
  __requires(C >= 1 && N >= 1 && N <= (1 << 30) / C && __len(out) >= N * C && __len(inp) >= N * C);
#endif
  __shared__ float partial[8];
  int row = blockIdx.x;
  if (row >= N) // the whole block leaves: no barrier is skipped by part of it
    return;
  int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
  const float *x = inp + row * C;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    m = fmaxf(m, x[c]);
  for (int offset = 16; offset > 0; offset /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  if (lane == 0)
    partial[warp] = m;
  __syncthreads();
  m = partial[0];
  for (int w = 1; w < 8; w++)
    m = fmaxf(m, partial[w]);
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    s += expf(x[c] - m);
  s = warp_reduce_sum(s);
  if (lane == 0)
    partial[warp] = s;
  __syncthreads();
  s = 0.0f;
  for (int w = 0; w < 8; w++)
    s += partial[w];
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    out[row * C + c] = expf(x[c] - m) / s;
}

// The same with CUB: ksynth does not model CUB's algorithms, so this one is unknown, naming
// the call.
__global__ void __launch_bounds__(256) softmax_forward_cub(float *out, const float *inp, int N, int C) {
#ifdef __KSYNTH__
  __requires(C >= 1 && N >= 1 && N <= (1 << 30) / C && __len(out) >= N * C && __len(inp) >= N * C);
#endif
  typedef cub::BlockReduce<float, 256> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float row_max, row_sum;
  const float *x = inp + blockIdx.x * C;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    m = fmaxf(m, x[c]);
  float block_max = BlockReduce(temp).Reduce(m, cub::Max());
  if (threadIdx.x == 0)
    row_max = block_max;
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    s += expf(x[c] - row_max);
  float block_sum = BlockReduce(temp).Sum(s);
  if (threadIdx.x == 0)
    row_sum = block_sum;
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    out[blockIdx.x * C + c] = expf(x[c] - row_max) / row_sum;
}

int main() {
  setup_main();
  int N = 8 * 1024, C = 50257;
  float *d_out, *d_inp;
  cudaCheck(cudaMalloc(&d_out, (size_t)N * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_inp, (size_t)N * C * sizeof(float)));
  softmax_forward_shfl<<<N, 256>>>(d_out, d_inp, N, C);
  softmax_forward_cub<<<N, 256>>>(d_out, d_inp, N, C);
  cudaCheck(cudaGetLastError());
  cudaCheck(cudaDeviceSynchronize());
  return 0;
}
