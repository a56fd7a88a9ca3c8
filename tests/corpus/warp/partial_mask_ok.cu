// expect: proven
// args: --block 64
// note: lanes 0..15 sum pairs of half-warps with the mask 0x0000ffff and width 16: every lane read is named
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  if (threadIdx.x % 32 < 16)
    for (int off = 8; off > 0; off >>= 1)
      v += __shfl_down_sync(0x0000ffffu, v, off, 16);
  if (i < n)
    out[i] = v;
}
