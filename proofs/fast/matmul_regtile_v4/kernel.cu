// ksynth:spec matmul
// ksynth:launch grid=((N + 63) / 64, (M + 63) / 64) block=(16, 16)
// Register-tiled product with 128-bit shared loads: a 64 x 64 tile of C per block of 16 x 16
// threads, a 4 x 4 tile per thread on 4 adjacent rows and 4 adjacent columns, so that at each
// k one float4 load of A's transposed slice and one of B's slice feed 16 FMAs (nvcc: 32
// ld.shared.v4.f32 for 256 fma.rn.f32 per slice; matmul_regtile.cu needs 128 scalar shared
// loads). Edge tiles are zero-filled under guards, so any M, N, K work.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void matmul_regtile_v4(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
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
      float4 a = *reinterpret_cast<const float4 *>(&As[kk][ty * TM]);
      float4 b = *reinterpret_cast<const float4 *>(&Bs[kk][tx * TN]);
      acc[0][0] += a.x * b.x; acc[0][1] += a.x * b.y; acc[0][2] += a.x * b.z; acc[0][3] += a.x * b.w;
      acc[1][0] += a.y * b.x; acc[1][1] += a.y * b.y; acc[1][2] += a.y * b.z; acc[1][3] += a.y * b.w;
      acc[2][0] += a.z * b.x; acc[2][1] += a.z * b.y; acc[2][2] += a.z * b.z; acc[2][3] += a.z * b.w;
      acc[3][0] += a.w * b.x; acc[3][1] += a.w * b.y; acc[3][2] += a.w * b.z; acc[3][3] += a.w * b.w;
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
