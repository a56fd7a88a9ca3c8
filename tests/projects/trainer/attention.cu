// Pieces of an attention layer: the head permutation, a causal softmax with one warp per row
// (a kernel-local namespace alias, as such code writes it), a tile load through the
// asynchronous-copy primitives, and a template helper kernel this file never instantiates.
// Checked by tests/projects/run_projects.py.
// expect-kernel: permute_heads<64> proven
// expect-kernel: softmax_causal_warp proven
// expect-kernel: load_tile_async unknown __pipeline_memcpy_async
// expect-kernel: scale_inplace unknown never instantiated
#include "common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_pipeline.h>

// One sequence: inp (T, NH, HS) -> out (NH, T, HS), the head size a template argument: a
// grid of (T * HS / 256, NH) blocks.
template <int HS>
__global__ void permute_heads(float *out, const float *inp, int T, int NH) {
#ifdef __KSYNTH__
  __requires(T >= 1 && NH >= 1 && T <= 4096 && NH <= 64);
  __requires(__len(out) >= T * NH * HS && __len(inp) >= T * NH * HS);
#endif
  int th = blockIdx.x * blockDim.x + threadIdx.x;
  int nh = blockIdx.y;
  if (th < T * HS && nh < NH) {
    int t = th / HS, hs = th % HS;
    out[(nh * T + t) * HS + hs] = inp[(t * NH + nh) * HS + hs];
  }
}

// One warp per row of a (N, T, T) score tensor: softmax over the first t + 1 entries of row
// t, zeros after them.
__global__ void softmax_causal_warp(float *out, const float *att, int N, int T) {
#ifdef __KSYNTH__
  __requires(N >= 1 && T >= 1 && N <= 256 && T <= 1024 && __len(out) >= N * T * T && __len(att) >= N * T * T);
#endif
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N * T)
    return;
  int t = row % T;
  const float *x = att + row * T;
  float m = -FLT_MAX;
  for (int i = warp.thread_rank(); i <= t; i += warp.size())
    m = fmaxf(m, x[i]);
  m = cg::reduce(warp, m, cg::greater<float>());
  float s = 0.0f;
  for (int i = warp.thread_rank(); i <= t; i += warp.size())
    s += expf(x[i] - m);
  s = cg::reduce(warp, s, cg::plus<float>());
  for (int i = warp.thread_rank(); i < T; i += warp.size())
    out[row * T + i] = i <= t ? expf(x[i] - m) / s : 0.0f;
}

// A 64-float tile per block, copied to shared memory asynchronously.
__global__ void load_tile_async(float *out, const float *inp, int n) {
#ifdef __KSYNTH__
  __requires(n >= 1 && n <= (1 << 24) && __len(out) >= n * 64 && __len(inp) >= n * 64);
#endif
  __shared__ float tile[64];
  if (blockIdx.x >= n)
    return;
  __pipeline_memcpy_async(&tile[threadIdx.x], &inp[blockIdx.x * 64 + threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}

// Kept for experiments, never launched.
template <class T> __global__ void scale_inplace(T *x, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

int main() {
  setup_main();
  int B = 8, T = 1024, NH = 12, HS = 64;
  float *d_out, *d_inp;
  cudaCheck(cudaMalloc(&d_out, (size_t)B * NH * T * T * sizeof(float)));
  cudaCheck(cudaMalloc(&d_inp, (size_t)B * NH * T * T * sizeof(float)));
  for (int b = 0; b < B; b++)
    permute_heads<64><<<dim3(ceil_div(T * HS, 256), NH), 256>>>(d_out + b * NH * T * HS, d_inp + b * T * NH * HS, T,
                                                                NH);
  softmax_causal_warp<<<ceil_div(B * NH * T * 32, 256), 256>>>(d_out, d_inp, B * NH, T);
  load_tile_async<<<B * T, 64>>>(d_out, d_inp, B * T);
  cudaCheck(cudaDeviceSynchronize());
  return 0;
}
