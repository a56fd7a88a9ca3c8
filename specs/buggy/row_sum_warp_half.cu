// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the shuffle tree starts at offset 8: lane 0 sums lanes 0..15 only (right while C <= 16).
__global__ void row_sum_warp(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int c = lane; c < C; c += 32)
    acc += X[r * C + c];
  for (int off = 8; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    Y[r] = acc;
}
