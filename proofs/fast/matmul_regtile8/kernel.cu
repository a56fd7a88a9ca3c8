// ksynth:spec matmul
// ksynth:launch grid=((N + 127) / 128, (M + 127) / 128) block=(16, 16)
// Register-tiled product, 8 x 8 outputs per thread: a 128 x 128 tile of C per block of
// 16 x 16 threads, each thread's 8 x 8 tile on 8 adjacent rows and 8 adjacent columns, so
// that at each k two float4 loads of A's transposed slice and two of B's slice feed 64 FMAs
// (four times the FMAs per shared load of matmul_regtile_v4's 4 x 4 tile). 16-wide slices of
// A (transposed) and B staged in shared memory, zero-filled under guards past the edges, so
// any M, N, K work.
#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8
__global__ void matmul_regtile8(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM + 4];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < TM; ++l) {
      int r = row0 + ty * TM + l;
      As[tx][ty * TM + l] = (r < M && k0 + tx < K) ? A[r * K + k0 + tx] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < TN; ++l) {
      int c = col0 + tx * TN + l;
      Bs[ty][tx * TN + l] = (k0 + ty < K && c < N) ? B[(k0 + ty) * N + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM + 4]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * TN]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * TN + 4]);
      float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
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
      int r = row0 + ty * TM + i, c = col0 + tx * TN + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
