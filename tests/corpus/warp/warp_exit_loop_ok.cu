// expect: proven
// args: --block 64
// note: a return inside a loop, uniform within each warp (warp 1 leaves in round 1); only shuffles follow it, in this round and the next, so the lanes of each warp still meet the same exchanges
__global__ void rounds(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 64 * gridDim.x && __len(out) >= 64 * gridDim.x);
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = in[i];
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x / 32 == 1 && k == 1)
      return;
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  }
  out[i] = v;
}
