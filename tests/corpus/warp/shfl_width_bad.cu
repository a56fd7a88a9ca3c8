// expect: refuted warp
// args: --block 64
// note: width 24 is not a power of two (undefined in CUDA)
#define FULL 0xffffffffu
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  v += __shfl_xor_sync(FULL, v, 1, 24);
  if (i < n)
    out[i] = v;
}
