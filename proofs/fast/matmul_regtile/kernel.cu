// ksynth:spec matmul
// ksynth:launch grid=((N + 63) / 64, (M + 63) / 64) block=(16, 16)
// Register-tiled product: a 64 x 64 tile of C per block of 16 x 16 threads. Each thread keeps
// a 4 x 4 tile of C in registers (rows ty + 16 i, columns tx + 16 j, so that its stores and
// shared reads are coalesced) and accumulates it from 16-wide slices of A and B staged in
// shared memory: per k, 4 + 4 shared loads feed 16 FMAs. Edge tiles are zero-filled under
// guards, so any M, N, K work.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void matmul_regtile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                               int M, int N, int K) {
  __shared__ float As[BK][BM + 1]; // A's slice, transposed (As[k][m]); padded against bank conflicts
  __shared__ float Bs[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < TM; ++l) {
      int r = row0 + ty + 16 * l;
      As[tx][ty + 16 * l] = (r < M && k0 + tx < K) ? A[r * K + k0 + tx] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < TN; ++l) {
      int c = col0 + tx + 16 * l;
      Bs[ty][tx + 16 * l] = (k0 + ty < K && c < N) ? B[(k0 + ty) * N + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i)
        a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j)
        b[j] = Bs[kk][tx + 16 * j];
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
