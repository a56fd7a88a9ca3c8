// expect: proven
// args: --block 48
// note: the twin of shfl_partial_warp_bad.cu with width 16: every lane reads inside its own 16-lane segment, which exists
#define FULL 0xffffffffu
__global__ void half_warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= 3 * gridDim.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 8; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off, 16);
  if (threadIdx.x % 16 == 0)
    out[blockIdx.x * 3 + threadIdx.x / 16] = v;
}
