// expect: refuted race
// args: --checks race,barrier,assert
// note: the twin of host_launch_printed_ok: the block is also passed by non-const reference to a
// note: function that may set its z, so no dimension is taken and threads differing in z race
#include <cstdio>
#include <cstdlib>

__global__ void add2d(float *c, const float *a, const float *b, int nx, int ny) {
  int ix = threadIdx.x + blockIdx.x * blockDim.x;
  int iy = threadIdx.y + blockIdx.y * blockDim.y;
  if (ix < nx && iy < ny && nx <= 4096 && ny <= 4096)
    c[iy * nx + ix] = a[iy * nx + ix] + b[iy * nx + ix];
}

void pickBlock(dim3 &b);

int main(int argc, char **argv) {
  int nx = 1024, ny = 1024;
  int w = argc > 2 ? atoi(argv[1]) : 32, h = argc > 2 ? atoi(argv[2]) : 8;
  float *a, *b, *c;
  cudaMalloc(&a, nx * ny * sizeof(float));
  cudaMalloc(&b, nx * ny * sizeof(float));
  cudaMalloc(&c, nx * ny * sizeof(float));
  dim3 block(w, h);
  pickBlock(block);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  add2d<<<grid, block>>>(c, a, b, nx, ny);
  printf("add2d <<<(%d,%d), (%d,%d)>>>\n", grid.x, grid.y, block.x, block.y);
  cudaDeviceSynchronize();
  return 0;
}
