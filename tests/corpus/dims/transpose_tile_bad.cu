// expect: refuted race
// args: --block 16,16 --checks race,barrier,bounds,overflow,assert
// note: thread (x=1, y=0) reads tile[1][0], written by thread (x=0, y=1), with no barrier
__global__ void transpose(const float *in, float *out, int w, int h) {
  __requires(gridDim.z == 1);
  __requires(w >= 0);
  __requires(w <= 8192);
  __requires(h >= 0);
  __requires(h <= 8192);
  __requires(__len(in) >= w * h);
  __requires(__len(out) >= w * h);
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
