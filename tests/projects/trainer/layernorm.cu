// LayerNorm forward over bf16 rows, one warp per row through cooperative groups (tiled
// partition, cg::reduce), with the statistics kept for the backward pass. Checked by
// tests/projects/run_projects.py.
// expect-kernel: layernorm_forward_warp proven
// expect-kernel: layernorm_forward_naive refuted bounds
#include "common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <assert.h>

namespace cg = cooperative_groups;

// One warp per row of C channels: mean, reciprocal standard deviation, normalised output.
__global__ void __launch_bounds__(512) layernorm_forward_warp(floatX *__restrict__ out, float *__restrict__ mean,
                                                              float *__restrict__ rstd,
                                                              const floatX *__restrict__ inp,
                                                              const floatX *__restrict__ weight,
                                                              const floatX *__restrict__ bias, int N, int C) {
#ifdef __KSYNTH__
  __requires(C >= 1 && N >= 1 && N <= (1 << 30) / C);
  __requires(__len(out) >= N * C && __len(inp) >= N * C && __len(mean) >= N && __len(rstd) >= N);
  __requires(__len(weight) >= C && __len(bias) >= C);
#endif
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N)
    return;
  const floatX *x = inp + row * C;
  float sum = 0.0f;
  for (int c = warp.thread_rank(); c < C; c += warp.size())
    sum += (float)x[c];
  sum = cg::reduce(warp, sum, cg::plus<float>());
  float m = sum / C;
  float sq = 0.0f;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float d = (float)x[c] - m;
    sq += d * d;
  }
  sq = cg::reduce(warp, sq, cg::plus<float>());
  float s = rsqrtf(sq / C + 1e-5f);
  if (warp.thread_rank() == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
  floatX *o = out + row * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float n = s * ((float)x[c] - m);
    o[c] = (floatX)(n * (float)weight[c] + (float)bias[c]);
  }
}

// One thread per row; stores the statistics before checking that its row exists.
__global__ void layernorm_forward_naive(floatX *out, float *mean, float *rstd, const floatX *inp,
                                        const floatX *weight, const floatX *bias, int N, int C) {
#ifdef __KSYNTH__
  __requires(C >= 1 && N >= 1 && N <= (1 << 30) / C);
  __requires(__len(out) >= N * C && __len(inp) >= N * C && __len(mean) >= N && __len(rstd) >= N);
  __requires(__len(weight) >= C && __len(bias) >= C);
#endif
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  mean[idx] = 0.0f;
  if (idx >= N)
    return;
  const floatX *x = inp + idx * C;
  float m = 0.0f;
  for (int c = 0; c < C; c++)
    m += (float)x[c];
  m = m / C;
  float v = 0.0f;
  for (int c = 0; c < C; c++) {
    float d = (float)x[c] - m;
    v += d * d;
  }
  float s = 1.0f / sqrtf(v / C + 1e-5f);
  floatX *o = out + idx * C;
  for (int c = 0; c < C; c++)
    o[c] = (floatX)(s * ((float)x[c] - m) * (float)weight[c] + (float)bias[c]);
  mean[idx] = m;
  rstd[idx] = s;
}

void layernorm_forward(int kernel_num, floatX *out, float *mean, float *rstd, const floatX *inp,
                       const floatX *weight, const floatX *bias, int B, int T, int C) {
  const int N = B * T;
  switch (kernel_num) {
  case 1:
    layernorm_forward_naive<<<ceil_div(N, 256), 256>>>(out, mean, rstd, inp, weight, bias, N, C);
    break;
  case 2:
    layernorm_forward_warp<<<ceil_div(N * 32, 512), 512>>>(out, mean, rstd, inp, weight, bias, N, C);
    break;
  default:
    printf("Invalid kernel number\n");
    exit(1);
  }
  cudaCheck(cudaGetLastError());
}

int main(int argc, char **argv) {
  setup_main();
  int B = 8, T = 1024, C = 768;
  int kernel_num = argc > 1 ? atoi(argv[1]) : 2;
  floatX *d_out, *d_inp, *d_weight, *d_bias;
  float *d_mean, *d_rstd;
  cudaCheck(cudaMalloc(&d_out, B * T * C * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_inp, B * T * C * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_weight, C * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_bias, C * sizeof(floatX)));
  cudaCheck(cudaMalloc(&d_mean, B * T * sizeof(float)));
  cudaCheck(cudaMalloc(&d_rstd, B * T * sizeof(float)));
  layernorm_forward(kernel_num, d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, B, T, C);
  cudaCheck(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
