// expect: proven
// args: --block 256
// note: a row per warp, 8 warps per block: warps past the last row return before the shuffles; the exit is uniform within each warp, so every lane of a shuffling warp takes part
__global__ void row_sums(const float *X, float *Y, int R, int C) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 65536 && C <= 16384);
  __requires(__len(X) >= R * C && __len(Y) >= R);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int r = blockIdx.x * 8 + warp;
  if (r >= R)
    return;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
