// expect: proven
// args: --block 128
// note: butterfly all-reduce with __shfl_xor_sync: every lane ends with its warp's maximum
#define FULL 0xffffffffu
__global__ void warp_max(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : -1e30f;
  for (int m = 16; m >= 1; m /= 2)
    v = fmaxf(v, __shfl_xor_sync(FULL, v, m));
  if (i < n)
    out[i] = v;
}
