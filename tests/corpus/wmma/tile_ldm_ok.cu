// expect: proven
// args: --block 128
// note: tile_ldm_bad.cu with K = 264: 528 bytes per row of A, a multiple of 16
#include <mma.h>
using namespace nvcuda;
#define N 256
#define K 264
__global__ void wmma_tile(const half *a, const half *b, float *c, int M) {
  __requires(gridDim.z == 1);
  __requires(M > 0 && M <= 1024);
  __requires(M % 16 == 0);
  __requires(__len(a) >= M * K && __len(b) >= K * N && __len(c) >= M * N);
  int tm = blockIdx.y, tn = blockIdx.x * 4 + threadIdx.x / 32; // four warps, four tiles of a row
  if (tm < M / 16 && tn < N / 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k + 16 <= K; k += 16) {
      wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
      wmma::load_matrix_sync(fb, b + k * N + tn * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
  }
}
