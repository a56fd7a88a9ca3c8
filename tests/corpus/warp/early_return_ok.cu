// expect: proven
// args: --block 64
// note: the twin of early_return_bad.cu: out-of-range threads take part with 0 and return after the reduction
#define FULL 0xffffffffu
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (i >= n)
    return;
  if (threadIdx.x % 32 == 0)
    out[i / 32] = v;
}
