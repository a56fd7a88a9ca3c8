// ksynth:spec transpose
// ksynth:launch grid=((W + 31) / 32, (H + 31) / 32) block=(32, 8)
// A 32 x 32 tile per block of 32 x 8 threads, each thread moving four elements each way
// (rows ty, ty + 8, ty + 16, ty + 24), through a 32 x 33 shared tile (padded against bank
// conflicts): coalesced reads and writes, a quarter of the blocks of transpose.cu's 16 x 16
// tiles per element moved.
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
      Out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}
