// expect: refuted barrier
// args: --block 64
// note: twin of warp_exit_loop_ok.cu whose loop body also has a __syncthreads(): the return is uniform within each warp, but the barrier of the next round needs the whole block
__global__ void rounds(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= 64 * gridDim.x && __len(out) >= 64 * gridDim.x);
  __shared__ float s[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = in[i];
  for (int k = 0; k < n; ++k) {
    s[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x / 32 == 1 && k == 1)
      return;
    v += __shfl_xor_sync(0xffffffffu, v, 1) + s[threadIdx.x ^ 32];
    __syncthreads();
  }
  out[i] = v;
}
