// expect: proven
// args: --block 256
// note: a warp scan by __shfl_up_sync, the warps' totals through shared memory after a barrier (specs/fast/scan_block_warp.cu)
__global__ void scan_warp_totals(const float *X, float *Y, int N) {
  __requires(N >= 0 && N <= 256 && __len(X) >= N && __len(Y) >= N);
  __requires(gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __shared__ float total[8];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  float v = t < N ? X[t] : 0.0f;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    float u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    total[w] = v;
  __syncthreads();
  float before = 0.0f;
  for (int j = 0; j < w; ++j)
    before += total[j];
  if (t < N)
    Y[t] = before + v;
}
