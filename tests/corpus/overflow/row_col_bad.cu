// expect: refuted overflow
// args: --block 16,16 --checks overflow
// note: m up to 65536: row = 32768, n = 65536 gives row * n = 2^31
__global__ void clear(float *a, int m, int n) {
  __requires(gridDim.z == 1);
  __requires(m >= 0);
  __requires(m <= 65536);
  __requires(n >= 0);
  __requires(n <= 65536);
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    int idx = row * n + col;
    a[idx] = 0.0f;
  }
}
