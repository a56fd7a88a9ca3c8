// expect: refuted bounds
// args: --block 32,8 --checks race,barrier,bounds,overflow,assert -D W=512
// note: tile is [8][32] but is read as tile[threadIdx.x][...]: threadIdx.x = 8..31 is past row 7
__global__ void rotate_rows(const float *in, float *out, int h) {
  __requires(gridDim.z == 1);
  __requires(h >= 0);
  __requires(h <= 4096);
  __requires(__len(in) >= h * W);
  __requires(__len(out) >= h * W);
  __shared__ float tile[8][32];
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  bool inside = col < W && row < h;
  tile[threadIdx.y][threadIdx.x] = inside ? in[row * W + col] : 0.0f;
  __syncthreads();
  if (inside)
    out[row * W + col] = tile[threadIdx.x][threadIdx.y];
}
