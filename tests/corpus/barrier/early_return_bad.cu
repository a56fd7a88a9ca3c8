// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: threads with i >= n return before the barrier (e.g. n = 10: threads 10..255 of block 0)
__global__ void reverse_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  int i = base + t;
  if (i >= n)
    return;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[255 - t];
}
