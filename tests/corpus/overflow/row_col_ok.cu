// expect: proven
// args: --block 16,16 --checks overflow
// note: largest index (m - 1) * n + n - 1 = m * n - 1 <= 2^31 - 1: exactly at the edge
// note: only overflow is checked (row * n is nonlinear)
__global__ void clear(float *a, int m, int n) {
  __requires(gridDim.z == 1);
  __requires(m >= 0);
  __requires(m <= 32768);
  __requires(n >= 0);
  __requires(n <= 65536);
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    int idx = row * n + col;
    a[idx] = 0.0f;
  }
}
