// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: a template kernel instantiated by its launch line (kernel=block_sum<256, float>): the shared tree is sized by BLOCK, which matches the 256-thread block; static_assert and constexpr in the body
// ksynth:launch kernel=block_sum<256, float> block=(256)
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
