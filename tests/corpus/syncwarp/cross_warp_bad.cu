// expect: refuted race
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: exchange across warps ordered only by __syncwarp(): thread 0 reads s[32] written
// note: by thread 32 of the other warp
__global__ void rotate_half(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncwarp();
  if (i < n)
    out[i] = s[(t + 32) % 64];
}
