// ksynth:spec transpose expect=equivalence
// ksynth:launch grid=((W + 15) / 16, (H + 15) / 16) block=(16, 16)
// Buggy twin of transpose: reads the tile at [y][x] instead of [x][y], so each 16 x 16 block
// lands in the right place but is not itself transposed.
__global__ void transpose(const float *In, float *Out, int H, int W) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < W && y < H)
    tile[threadIdx.y][threadIdx.x] = In[y * W + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < H && y < W)
    Out[y * H + x] = tile[threadIdx.y][threadIdx.x];
}
