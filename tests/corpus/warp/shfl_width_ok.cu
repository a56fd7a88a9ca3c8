// expect: proven
// args: --block 64
// note: the twin of shfl_width_bad.cu with width 16
#define FULL 0xffffffffu
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  v += __shfl_xor_sync(FULL, v, 1, 16);
  if (i < n)
    out[i] = v;
}
