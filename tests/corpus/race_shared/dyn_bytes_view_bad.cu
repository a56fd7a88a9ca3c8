// expect: refuted race
// args: --block 256 --checks race,barrier
// note: twin of dyn_bytes_view_ok without the barrier: thread 255 reads the float that thread 0 writes
__global__ void reverse_block(const float *x, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  extern __shared__ unsigned char smem[];
  float *s = reinterpret_cast<float *>(smem);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  out[i] = s[blockDim.x - 1 - threadIdx.x];
}
