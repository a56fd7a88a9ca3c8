// expect: proven
// args: --block 16,16 --checks race,barrier,bounds,overflow,assert
// note: standalone safe kernel: tiled matrix product with guards
#define TILE 16
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __requires(gridDim.z == 1);
  __requires(n >= 0);
  __requires(n <= 4096);
  __requires(__len(A) >= n * n);
  __requires(__len(B) >= n * n);
  __requires(__len(C) >= n * n);
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * n + k0 + tx] : 0.0f;
    Bs[ty][tx] = (col < n && k0 + ty < n) ? B[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}
