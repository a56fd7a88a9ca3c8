// ksynth:spec matmul expect=coverage
// ksynth:launch grid=((N + 31) / 32, (M + 31) / 32) block=(32, 4)
// Bug: the copy of the block's tile to C stops one round early: rows 28 to 31 of every 32 x 32
// tile of C are never written.
#include <mma.h>
using namespace nvcuda;
__global__ void matmul_wmma(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                            int M, int N, int K) {
  __shared__ __align__(32) half As[32][16];
  __shared__ __align__(32) half Bs[16][32];
  __shared__ __align__(32) float Cs[32][32];
  const int tid = threadIdx.y * 32 + threadIdx.x, wm = threadIdx.y / 2, wn = threadIdx.y % 2;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int r = tid / 16 + 8 * l, c = tid % 16;
      As[r][c] = __float2half((row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : 0.0f);
      int br = tid / 32 + 4 * l, bc = tid % 32;
      Bs[br][bc] = __float2half((k0 + br < K && col0 + bc < N) ? B[(k0 + br) * N + col0 + bc] : 0.0f);
    }
    __syncthreads();
    wmma::load_matrix_sync(a, &As[wm * 16][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][wn * 16], 32);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[wm * 16][wn * 16], acc, 32, wmma::mem_row_major);
  __syncthreads();
#pragma unroll
  for (int l = 0; l < 7; ++l) {
    int r = threadIdx.y + 4 * l, c = threadIdx.x;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = Cs[r][c];
  }
}
