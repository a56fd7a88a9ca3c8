// expect: proven
// args: --block 256
// note: each warp sums its 32 values with __shfl_down_sync; lane 0 of each warp writes one output
#define FULL 0xffffffffu
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (threadIdx.x % 32 == 0 && i < n)
    out[i / 32] = v;
}
