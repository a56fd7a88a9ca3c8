// ksynth:spec scan_block expect=equivalence
// ksynth:launch grid=(1) block=(256)
// Bug: each thread adds the totals of the warps up to and including its own (j <= w).
__global__ void scan_block_warp(const float *X, float *Y, int N) {
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
  for (int j = 0; j <= w; ++j)
    before += total[j];
  if (t < N)
    Y[t] = before + v;
}
