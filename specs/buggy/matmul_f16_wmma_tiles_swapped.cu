// ksynth:spec matmul_f16 expect=equivalence
// ksynth:launch grid=((N + 63) / 64, (M + 63) / 64) block=(32, 4)
// Bug: the accumulators c01 and c10 are stored in each other's place in the staged tile
// (top-right and bottom-left 16 x 16 blocks of each warp's tile swapped).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void matmul_f16_wmma(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
                                int M, int N, int K) {
  __shared__ __align__(32) half As[64][16];
  __shared__ __align__(32) half Bs[16][64];
  __shared__ __align__(32) float Cs[64][64];
  const int tid = threadIdx.y * 32 + threadIdx.x, wm = threadIdx.y / 2, wn = threadIdx.y % 2;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a0, a1;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b0, b1;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c00, c01, c10, c11;
  wmma::fill_fragment(c00, 0.0f);
  wmma::fill_fragment(c01, 0.0f);
  wmma::fill_fragment(c10, 0.0f);
  wmma::fill_fragment(c11, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
#pragma unroll
    for (int l = 0; l < 8; ++l) {
      int r = tid / 16 + 8 * l, c = tid % 16;
      As[r][c] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : __float2half(0.0f);
      int br = tid / 64 + 2 * l, bc = tid % 64;
      Bs[br][bc] = (k0 + br < K && col0 + bc < N) ? B[(k0 + br) * N + col0 + bc] : __float2half(0.0f);
    }
    __syncthreads();
    wmma::load_matrix_sync(a0, &As[wm * 32][0], 16);
    wmma::load_matrix_sync(a1, &As[wm * 32 + 16][0], 16);
    wmma::load_matrix_sync(b0, &Bs[0][wn * 32], 64);
    wmma::load_matrix_sync(b1, &Bs[0][wn * 32 + 16], 64);
    wmma::mma_sync(c00, a0, b0, c00);
    wmma::mma_sync(c01, a0, b1, c01);
    wmma::mma_sync(c10, a1, b0, c10);
    wmma::mma_sync(c11, a1, b1, c11);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[wm * 32][wn * 32], c00, 64, wmma::mem_row_major);
  wmma::store_matrix_sync(&Cs[wm * 32][wn * 32 + 16], c10, 64, wmma::mem_row_major);
  wmma::store_matrix_sync(&Cs[wm * 32 + 16][wn * 32], c01, 64, wmma::mem_row_major);
  wmma::store_matrix_sync(&Cs[wm * 32 + 16][wn * 32 + 16], c11, 64, wmma::mem_row_major);
  __syncthreads();
#pragma unroll
  for (int l = 0; l < 16; ++l) {
    int r = threadIdx.y + 4 * l, c = threadIdx.x;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = Cs[r][c];
    if (row0 + r < M && col0 + c + 32 < N)
      C[(row0 + r) * N + col0 + c + 32] = Cs[r][c + 32];
  }
}
