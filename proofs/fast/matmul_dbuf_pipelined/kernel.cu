// ksynth:spec matmul
// ksynth:launch grid=((N + 63) / 64, (M + 63) / 64) block=(16, 16)
// matmul_dbuf.cu without the prologue: in iteration t (0..T), slice t of A and B is staged into
// buffer t & 1 while the FMAs of slice t - 1 read the other buffer (each buffer read has one
// writer site). Edge tiles are zero-filled under guards, so any M, N, K work.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void matmul_dbuf_pipelined(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                               int M, int N, int K) {
  __shared__ float As[2][BK][BM + 1]; // two slices of A, transposed (As[buf][k][m]), padded
  __shared__ float Bs[2][BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  const int T = (K + BK - 1) / BK; // slices of K
  // Slice t is staged into buffer t & 1 while slice t - 1 is multiplied out of the other one:
  // one barrier per slice, and the global loads of the next slice overlap the FMAs.
  for (int t = 0; t <= T; ++t) {
    if (t < T) {
      const int k0 = t * BK, buf = t & 1;
#pragma unroll
      for (int l = 0; l < TM; ++l) {
        int r = row0 + ty + 16 * l;
        As[buf][tx][ty + 16 * l] = (r < M && k0 + tx < K) ? A[r * K + k0 + tx] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < TN; ++l) {
        int c = col0 + tx + 16 * l;
        Bs[buf][ty][tx + 16 * l] = (k0 + ty < K && c < N) ? B[(k0 + ty) * N + c] : 0.0f;
      }
    }
    if (t > 0) {
      const int buf = (t - 1) & 1;
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
          a[i] = As[buf][kk][ty + 16 * i];
#pragma unroll
        for (int j = 0; j < TN; ++j)
          b[j] = Bs[buf][kk][tx + 16 * j];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j)
            acc[i][j] += a[i] * b[j];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
