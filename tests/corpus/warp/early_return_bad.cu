// expect: refuted barrier
// args: --block 64
// note: threads with i >= n return before the warp reduction: with n = 1, lane 1 has left while lane 0 shuffles (and reads lane 16)
#define FULL 0xffffffffu
__global__ void warp_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = v;
}
