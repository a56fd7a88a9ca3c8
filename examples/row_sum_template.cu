// ksynth:launch kernel=row_sum_block<256> grid=(R) block=(256)
// A template kernel: BLOCK threads per row, instantiated by the launch line above (kernel=NAME<ARGS>);
// `ksynth verify examples/row_sum_template.cu --spec specs/row_sum.smt` proves the instance.
template <int BLOCK>
__global__ void row_sum_block(const float *X, float *Y, int R, int C) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
  constexpr int WARPS = BLOCK / 32;
  __shared__ float part[WARPS];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += BLOCK)
    acc += X[r * C + c];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < WARPS ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[r] = v;
  }
}
