// ksynth:spec row_max
// ksynth:launch grid=(R) block=(32)
// row_max_warp reading the row as float4s where C % 4 == 0 (single floats otherwise): each
// lane keeps the max of every 32nd float4 of the row (a max of its four elements per
// iteration), then an xor butterfly; lane 0 writes.
__global__ void row_max_warp_f4(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float m = -3.402823466e+38f; // -FLT_MAX
  if (C % 4 == 0) {
    const float4 *x4 = reinterpret_cast<const float4 *>(X + r * C);
    for (int c = lane; c < C / 4; c += 32) {
      float4 v = x4[c];
      m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
  } else {
    for (int c = lane; c < C; c += 32)
      m = fmaxf(m, X[r * C + c]);
  }
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0)
    Y[r] = m;
}
