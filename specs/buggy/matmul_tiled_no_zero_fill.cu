// ksynth:spec matmul_tiled expect=equivalence
// ksynth:launch grid=((N + 15) / 16, (M + 15) / 16) block=(16, 16)
// Buggy twin of matmul_tiled: edge tiles are not zero-filled, so for sizes that are not
// multiples of 16 the product reads uninitialised shared memory.
#define TILE 16
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
