// expect: proven
// args: --block 64
// note: the twin of shfl_divergent_bad.cu: every lane shuffles, only lanes 0..15 use the value
#define FULL 0xffffffffu
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float u = __shfl_down_sync(FULL, v, 16);
  if (threadIdx.x % 32 < 16)
    v += u;
  if (i < n)
    out[i] = v;
}
