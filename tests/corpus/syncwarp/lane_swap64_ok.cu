// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: two warps; t ^ 1 stays inside the warp, so __syncwarp() suffices
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
    out[i] = s[t ^ 1];
}
