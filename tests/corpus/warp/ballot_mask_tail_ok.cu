// expect: proven
// args: --block 256 --checks race,barrier,bounds,assert,warp
// note: the second stage of a block sum in lanes 0..7 of warp 0 with the mask a ballot computed
// note: (0x000000ff) and shuffles of width 8 from offset 4: every lane read is named. The
// note: ballot's operand (tid < 8, tid never changed) is a function of the thread's
// note: coordinates, so each lane's bit is computed as that lane computes it, and the safety
// note: proof knows the mask
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
      for (int off = 4; off > 0; off /= 2)
        v += __shfl_down_sync(mask, v, off, 8);
      if (tid == 0)
        out[blockIdx.x] = v;
    }
  }
}
