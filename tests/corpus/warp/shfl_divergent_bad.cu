// expect: refuted barrier
// args: --block 64
// note: only lanes 0..15 execute the shuffle: lanes 16..31 named in the full mask never reach it (warp divergence), e.g. threads 0 and 16
#define FULL 0xffffffffu
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(FULL, v, 16);
  if (i < n)
    out[i] = v;
}
