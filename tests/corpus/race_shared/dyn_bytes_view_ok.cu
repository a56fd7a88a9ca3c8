// expect: proven
// args: --block 256 --checks race,barrier
// note: dynamic shared memory declared as bytes and used only as floats (`float *s = reinterpret_cast<float *>(smem)`): an array of floats; the block reverses its values through it with a barrier between the store and the load
__global__ void reverse_block(const float *x, float *out) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  extern __shared__ unsigned char smem[];
  float *s = reinterpret_cast<float *>(smem);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  __syncthreads();
  out[i] = s[blockDim.x - 1 - threadIdx.x];
}
