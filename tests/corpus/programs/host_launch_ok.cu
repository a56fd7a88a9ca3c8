// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: no launch line and no flags: the launches in main give the block (16 x 16, and 256
// note: threads in a 1-D grid); the grid's sizes stay symbolic
__global__ void add2d(float *c, const float *a, int n) {
  __requires(n >= 0 && n <= 4096 && __len(c) >= n * n && __len(a) >= n * n);
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    c[y * n + x] = a[y * n + x] + 1.0f;
}

__global__ void add1d(float *c, const float *a, int n) {
  __requires(__len(c) >= n && __len(a) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + 1.0f;
}

int main(int argc, char **argv) {
  int n = 1024 * argc;
  float *a, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  add2d<<<grid, block>>>(c, a, n);
  add1d<<<(n + 255) / 256, 256>>>(c, a, n);
  cudaDeviceSynchronize();
  return 0;
}
