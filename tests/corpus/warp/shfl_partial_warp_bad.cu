// expect: refuted warp
// args: --block 48
// note: a block of 48 threads has a last warp of 16 lanes (32..47): thread 32 (lane 0 of the second warp) reads thread 48 in the first round, which does not exist
#define FULL 0xffffffffu
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= 2 * gridDim.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * 2 + threadIdx.x / 32] = v;
}
