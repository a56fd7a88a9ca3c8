// ksynth:spec softmax
// ksynth:launch grid=(R) block=(32)
// One warp per row: each lane keeps the max of a strided slice of the row and a
// __shfl_xor_sync butterfly gives every lane the row's max; each lane then sums exp(x - max)
// over its slice and a second butterfly gives every lane the row's sum; each lane writes its
// slice. No shared memory and no __syncthreads().
__global__ void softmax_warp(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const float *x = X + r * C;
  float m = -3.402823466e+38f; // -FLT_MAX
  for (int c = lane; c < C; c += 32)
    m = fmaxf(m, x[c]);
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += __expf(x[c] - m);
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = __expf(x[c] - m) / s;
}
