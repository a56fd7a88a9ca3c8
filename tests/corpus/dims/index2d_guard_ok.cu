// expect: proven
// args: --block 16,16 --checks race,barrier,bounds,overflow,assert
__global__ void clear2d(float *out, int w, int h) {
  __requires(gridDim.z == 1);
  __requires(w >= 0);
  __requires(w <= 4096);
  __requires(h >= 0);
  __requires(h <= 4096);
  __requires(__len(out) >= w * h);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = 0.0f;
}
