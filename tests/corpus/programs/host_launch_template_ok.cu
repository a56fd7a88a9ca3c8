// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: the only launch is in a template host function: it is read in the function's instance
// note: (1-D blocks of 256), so the shared array indexed by threadIdx.x does not race
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
  blockReverse<T><<<n, 256>>>(out, in, n);
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
