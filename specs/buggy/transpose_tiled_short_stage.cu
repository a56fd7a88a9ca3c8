// ksynth:spec transpose expect=equivalence
// ksynth:launch grid=((W + 31) / 32, (H + 31) / 32) block=(32, 8)
// Bug: the staging loop stops after three rounds (j < 24): rows 24 to 31 of the tile are never
// written, and the last eight columns of each output block are read from them.
__global__ void transpose_tiled(const float *__restrict__ In, float *__restrict__ Out, int H, int W) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 24; j += 8)
    if (x < W && y + j < H)
      tile[threadIdx.y + j][threadIdx.x] = In[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W)
      Out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}
