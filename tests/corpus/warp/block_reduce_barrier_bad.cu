// expect: refuted race
// args: --block 256
// note: twin of block_reduce_barrier_ok.cu without the __syncthreads() between the warps' stores to part and warp 0's reads
__global__ void row_sum_block(const float *X, float *Y, int R, int C) {
  __requires(gridDim.x <= R && gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 65535 && C <= 16384);
  __requires(__len(X) >= R * C && __len(Y) >= R);
  __shared__ float part[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    part[warp] = acc;
  if (warp == 0) {
    float v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[r] = v;
  }
}
