// expect: refuted race
// args: --block 128 --checks race,barrier,bounds,overflow,assert,warp
// note: twin of half_masks_ok: a lane reads the cell of lane t ^ 16, in the other half, which
// note: its mask does not name: the two halves are not ordered
__global__ void half_swap(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n && __len(out) >= n);
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  if (t % 32 < 16)
    __syncwarp(0x0000ffffu);
  else
    __syncwarp(0xffff0000u);
  if (i < n)
    out[i] = s[t ^ 16];
}
