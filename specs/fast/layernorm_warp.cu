// ksynth:spec layernorm
// ksynth:launch grid=(R) block=(32)
// One warp per row, two passes: an xor butterfly gives every lane the row's sum (the mean),
// a second one the sum of squared deviations from it (the biased variance); each lane then
// normalises its strided slice of the row. No shared memory and no __syncthreads().
__global__ void layernorm_warp(const float *__restrict__ X, const float *__restrict__ G, const float *__restrict__ B,
                               float *__restrict__ Y, int R, int C, float eps) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const float *x = X + r * C;
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += x[c];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  float mean = s / C;
  float q = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float d = x[c] - mean;
    q += d * d;
  }
  for (int off = 16; off > 0; off >>= 1)
    q += __shfl_xor_sync(0xffffffffu, q, off);
  float inv = rsqrtf(q / C + eps);
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = (x[c] - mean) * inv * G[c] + B[c];
}
