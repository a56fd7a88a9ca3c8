// expect: refuted race bounds
// args: --block 16,16 --checks race,barrier,bounds,overflow,assert
// note: missing x < w: thread (x=w, y=0) and thread (x=0, y=1) both clear out[w] (w >= 1,
// note: h >= 2, gridDim.x * 16 > w); on the last row x >= w runs past the end of out
__global__ void clear2d(float *out, int w, int h) {
  __requires(gridDim.z == 1);
  __requires(w >= 0);
  __requires(w <= 4096);
  __requires(h >= 0);
  __requires(h <= 4096);
  __requires(__len(out) >= w * h);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < h)
    out[y * w + x] = 0.0f;
}
