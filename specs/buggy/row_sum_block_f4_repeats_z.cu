// ksynth:spec row_sum expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: each float4 adds its z element twice and its w element never.
__global__ void row_sum_block_f4(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  __shared__ float part[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc = 0.0f;
  if (C % 4 == 0) {
    const float4 *row = reinterpret_cast<const float4 *>(X + r * C);
    for (int c = threadIdx.x; c < C / 4; c += 256) {
      float4 v = row[c];
      acc += v.x + v.y + v.z + v.z;
    }
  } else {
    for (int c = threadIdx.x; c < C; c += 256)
      acc += X[r * C + c];
  }
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      Y[r] = v;
  }
}
