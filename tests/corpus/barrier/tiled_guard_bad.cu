// expect: refuted barrier
// args: --block 32,32 --checks race,barrier
// note: a tiled matrix product whose tile loop, with its barriers, sits inside `if (row < n && col < n)`: for n not a multiple of 32 (n = 33) the threads of the last blocks past n skip barriers that the others reach; at n <= 32 no tile runs, so the smallest sizes show nothing
#define TILE 32
__global__ void mmul(const float *A, const float *B, float *C, int n) {
  __requires(gridDim.z == 1);
  __requires(__len(A) >= n * n && __len(B) >= n * n && __len(C) >= n * n);
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
      As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
      Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
      __syncthreads();
      for (int k = 0; k < TILE; k++)
        acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      __syncthreads();
    }
    C[row * n + col] = acc;
  }
}
