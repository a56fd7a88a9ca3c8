// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert,warp
// note: lanes 0..7 reach the __syncwarp, and its mask 0x000000ff names them (twin: half_mask_divergent_bad)
__global__ void eighth(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n && __len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  if (t % 32 < 8) {
    __syncwarp(0x000000ffu);
    if (i < n)
      out[i] = s[t ^ 1];
  }
}
