// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: the block size is dispatched through a generic lambda called with integral_constant
// note: values; each instance of the lambda launches its own instance of the kernel, with its
// note: own constant block, so each template instance is checked with a 1-D block of BLOCK threads
#include <type_traits>
template <int BLOCK> __global__ void blockReverse(float *out, const float *in, int n) {
  __requires(n >= 1 && n <= (1 << 20) && __len(out) >= n * BLOCK && __len(in) >= n * BLOCK);
  __shared__ float s[BLOCK];
  if (blockIdx.x >= n)
    return;
  s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * BLOCK + threadIdx.x] = s[BLOCK - 1 - threadIdx.x];
}

template <class F> void dispatchBlock(F launch, int block) {
  if (block == 128)
    launch(std::integral_constant<int, 128>{});
  else
    launch(std::integral_constant<int, 256>{});
}

void reverseBlocks(float *out, const float *in, int n, int block) {
  auto launch = [&](auto c) { blockReverse<c.value><<<n, c.value>>>(out, in, n); };
  dispatchBlock(launch, block);
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 4096 * 256 * sizeof(float));
  cudaMalloc(&b, 4096 * 256 * sizeof(float));
  reverseBlocks(b, a, 4096, 256);
  cudaDeviceSynchronize();
  return 0;
}
