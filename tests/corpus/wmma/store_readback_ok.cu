// expect: proven
// args: --block 128
// note: each warp stores its 16 x 16 accumulator tile to its own part of shared memory, then, after __syncwarp(), each lane copies the elements at row 8 (lane / 16) + e, column lane % 16 to global memory (store_readback_bad.cu drops the __syncwarp)
#include <mma.h>
using namespace nvcuda;
#define N 256
#define K 256
__global__ void wmma_readback(const half *a, const half *b, float *c, int M) {
  __shared__ __align__(32) float tile[4][16][16];
  __requires(gridDim.z == 1);
  __requires(M > 0 && M <= 1024 && M % 16 == 0);
  __requires(__len(a) >= M * K && __len(b) >= K * N && __len(c) >= M * N);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tm = blockIdx.y, tn = blockIdx.x * 4 + warp;
  if (tm < M / 16 && tn < N / 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
      wmma::load_matrix_sync(fb, b + k * N + tn * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(&tile[warp][0][0], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = 0; e < 8; ++e) {
      int r = 8 * (lane / 16) + e, col = lane % 16;
      c[(tm * 16 + r) * N + tn * 16 + col] = tile[warp][r][col];
    }
  }
}
