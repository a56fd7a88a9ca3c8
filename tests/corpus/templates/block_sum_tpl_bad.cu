// expect: refuted bounds
// args: --checks race,barrier,bounds,overflow,assert
// note: the launch line instantiates BLOCK = 128 for a 256-thread block: thread 128 of block 0 writes s[128], one past the shared tree of 128 cells
// ksynth:launch kernel=block_sum<128, float> block=(256)
template <int BLOCK, typename T>
__global__ void block_sum(const T *x, T *out, int n) {
  static_assert(BLOCK % 32 == 0, "whole warps");
  constexpr int HALF = BLOCK / 2;
  __shared__ T s[BLOCK];
  __requires(n >= 0 && __len(x) >= n && __len(out) >= gridDim.x && gridDim.y == 1 && gridDim.z == 1);
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? x[i] : T(0);
  __syncthreads();
  for (int st = HALF; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
