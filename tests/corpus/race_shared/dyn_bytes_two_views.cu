// expect: unknown
// args: --block 256 --checks race,barrier
// note: the same dynamic shared bytes viewed as floats and as ints (at a byte offset): not one element type, so the casts stay unsupported (unknown, with the reason)
__global__ void two_views(const float *x, int *count, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  extern __shared__ unsigned char smem[];
  float *s = reinterpret_cast<float *>(smem);
  int *c = (int *)(smem + 1024);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  if (threadIdx.x == 0)
    c[0] = 0;
  __syncthreads();
  out[i] = s[blockDim.x - 1 - threadIdx.x];
  if (threadIdx.x == 0)
    count[blockIdx.x] = c[0];
}
