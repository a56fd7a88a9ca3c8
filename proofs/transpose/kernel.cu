// ksynth:launch grid=((W + 15) / 16, (H + 15) / 16) block=(16, 16)
// Through a 16 x 17 shared tile (padded against bank conflicts), coalesced on both sides.
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
    Out[y * H + x] = tile[threadIdx.x][threadIdx.y];
}
