// expect: refuted warp
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: twin of ballot_mask_tail_ok: the second stage of a block sum (the CUDA samples' reduce7
// note: shape) reduces the eight warp sums in lanes 0..7 of warp 0 with the mask a ballot
// note: computed (0x000000ff), but shuffles down from offset 16: lane 0 reads lane 16, which
// note: the mask does not name (its value is undefined), as the CUDA samples' reduce7 does
__global__ void block_sums(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.x == 256);
  __requires(__len(x) >= n);
  __requires(__len(out) >= gridDim.x);
  __shared__ float partial[8];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (tid % 32 == 0)
    partial[tid / 32] = v;
  __syncthreads();
  if (tid < 32) {
    unsigned mask = __ballot_sync(0xffffffffu, tid < 8);
    if (tid < 8) {
      v = partial[tid];
      for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(mask, v, off);
      if (tid == 0)
        out[blockIdx.x] = v;
    }
  }
}
