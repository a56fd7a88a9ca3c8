// ksynth:spec matmul
// ksynth:launch grid=((N + 63) / 64, (M + 63) / 64) block=(16, 16)
// The register-tiled product of matmul_regtile.cu with double-buffered shared slices: slice 0 of
// A and B is staged before the loop; in iteration t, slice t + 1 is staged into buffer
// (t + 1) & 1 while the FMAs of slice t read buffer t & 1, so a slice costs one barrier instead
// of two and its global loads overlap the previous slice's arithmetic. Edge tiles are
// zero-filled under guards, so any M, N, K work.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void matmul_dbuf(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                               int M, int N, int K) {
  __shared__ float As[2][BK][BM + 1]; // two slices of A, transposed (As[buf][k][m]), padded
  __shared__ float Bs[2][BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  const int T = (K + BK - 1) / BK;
#pragma unroll
  for (int l = 0; l < TM; ++l) {
    int r = row0 + ty + 16 * l;
    As[0][tx][ty + 16 * l] = (r < M && tx < K) ? A[r * K + tx] : 0.0f;
  }
#pragma unroll
  for (int l = 0; l < TN; ++l) {
    int c = col0 + tx + 16 * l;
    Bs[0][ty][tx + 16 * l] = (ty < K && c < N) ? B[ty * N + c] : 0.0f;
  }
  __syncthreads();
  for (int t = 0; t < T; ++t) {
    const int cur = t & 1, nxt = cur ^ 1;
    if (t + 1 < T) {
      const int k0 = (t + 1) * BK;
#pragma unroll
      for (int l = 0; l < TM; ++l) {
        int r = row0 + ty + 16 * l;
        As[nxt][tx][ty + 16 * l] = (r < M && k0 + tx < K) ? A[r * K + k0 + tx] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < TN; ++l) {
        int c = col0 + tx + 16 * l;
        Bs[nxt][ty][tx + 16 * l] = (k0 + ty < K && c < N) ? B[(k0 + ty) * N + c] : 0.0f;
      }
    }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i)
        a[i] = As[cur][kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j)
        b[j] = Bs[cur][kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += a[i] * b[j];
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
