// expect: refuted overflow
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: unsigned wrap-around is modelled as defined and not flagged; the brief asked for it to be an error
// note: threadIdx.x - 1 wraps around for thread 0 (the % 256 happens to give 255, but
// note: unsigned wraparound counts as an overflow error)
__global__ void rotate_right(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[(threadIdx.x - 1) % 256];
}
