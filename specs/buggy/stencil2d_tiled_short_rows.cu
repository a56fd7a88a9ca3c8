// ksynth:spec stencil2d expect=equivalence
// ksynth:launch grid=((W+29)/32, (H+5)/8) block=(32, 8)
// Bug: the tile has 9 rows of inputs loaded: the lower neighbour of each block's last output row is never written.
__global__ void stencil2d_tiled(const float *__restrict__ X, float *__restrict__ Y, int H, int W) {
  __shared__ float tile[10][34];
  int bx = blockIdx.x * 32, by = blockIdx.y * 8;
  for (int t = threadIdx.y * 32 + threadIdx.x; t < 9 * 34; t += 256) {
    int r = t / 34, c = t % 34;
    int gi = by + r, gj = bx + c;
    tile[r][c] = gi < H && gj < W ? X[gi * W + gj] : 0.0f;
  }
  __syncthreads();
  int j = bx + threadIdx.x, i = by + threadIdx.y;
  if (i < H - 2 && j < W - 2) {
    int r = threadIdx.y + 1, c = threadIdx.x + 1;
    Y[i * (W - 2) + j] = 0.2f * (tile[r][c] + tile[r - 1][c] + tile[r + 1][c] + tile[r][c - 1] + tile[r][c + 1]);
  }
}
