// expect: refuted race
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: t ^ 32 exchanges with the other warp of the block: __syncwarp() does not order
// note: thread 0 (warp 0) and thread 32 (warp 1)
__global__ void swap_lanes(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncwarp();
  if (i < n)
    out[i] = s[t ^ 32];
}
