// ksynth:spec transpose expect=equivalence
// ksynth:launch grid=((W + 31) / 32, (H + 31) / 32) block=(32, 8)
// Bug: the tile is read back as it was stored (tile[ty + j][tx], not tile[tx][ty + j]): each
// 32 x 32 block lands in its transposed place without being transposed itself.
__global__ void transpose_tiled(const float *__restrict__ In, float *__restrict__ Out, int H, int W) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8)
    if (x < W && y + j < H)
      tile[threadIdx.y + j][threadIdx.x] = In[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W)
      Out[(y + j) * H + x] = tile[threadIdx.y + j][threadIdx.x];
}
