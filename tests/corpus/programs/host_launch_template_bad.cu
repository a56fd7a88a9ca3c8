// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: the twin of host_launch_template_ok: the template host function launches blocks of
// note: 256 x 2 threads, so two rows of the block write the same cell of s
template <class T> __global__ void blockReverse(T *out, const T *in, int n) {
  __requires(n >= 1 && n <= (1 << 20) && __len(out) >= n * 256 && __len(in) >= n * 256);
  __shared__ T s[256];
  if (blockIdx.x >= n)
    return;
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

template <class T> void reverseBlocks(T *out, const T *in, int n) {
  blockReverse<T><<<n, dim3(256, 2)>>>(out, in, n);
}

int main() {
  float *a, *b;
  int n = 4096;
  cudaMalloc(&a, n * 256 * sizeof(float));
  cudaMalloc(&b, n * 256 * sizeof(float));
  reverseBlocks(b, a, n);
  cudaDeviceSynchronize();
  return 0;
}
