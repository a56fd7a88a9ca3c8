// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the helper contains __syncthreads() and is called only by threads with i < n
// note: (n = 10: threads 10..255 of block 0 skip it)
__device__ void stage(float *s, int t, float v) {
  s[t] = v;
  __syncthreads();
}

__global__ void reverse_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i < n)
    stage(s, t, v);
  if (i < n)
    out[i] = s[255 - t];
}
