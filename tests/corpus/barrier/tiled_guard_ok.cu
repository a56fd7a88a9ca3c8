// expect: proven
// args: --block 32,32 --checks race,barrier
// note: twin of tiled_guard_bad: every thread runs the tile loop and its barriers (loads of rows and columns past n are skipped, not the barriers); only the store is guarded
#define TILE 32
__global__ void mmul(const float *A, const float *B, float *C, int n) {
  __requires(gridDim.z == 1);
  __requires(__len(A) >= n * n && __len(B) >= n * n && __len(C) >= n * n);
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  {
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
      As[threadIdx.y][threadIdx.x] = row < n ? A[row * n + t * TILE + threadIdx.x] : 0.0f;
      Bs[threadIdx.y][threadIdx.x] = col < n ? B[(t * TILE + threadIdx.y) * n + col] : 0.0f;
      __syncthreads();
      for (int k = 0; k < TILE; k++)
        acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      __syncthreads();
    }
    if (row < n && col < n)
      C[row * n + col] = acc;
  }
}
