// expect: refuted race
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: no __syncwarp() between steps: in step off=8 lane 0 reads s[8], which lane 8 wrote
// note: in step off=16
__global__ void warp_sums(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x;
  int lane = t % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncwarp();
  for (int off = 16; off > 0; off >>= 1) {
    if (lane < off)
      s[t] += s[t + off];
  }
  if (lane == 0 && i < n)
    out[i / 32] = s[t];
}
