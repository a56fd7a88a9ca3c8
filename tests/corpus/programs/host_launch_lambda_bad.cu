// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: the twin of host_launch_lambda_ok: the lambda launches blocks of BLOCK x 2 threads,
// note: so two rows of a block write the same cell of s
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
  auto launch = [&](auto c) { blockReverse<c.value><<<n, dim3(c.value, 2)>>>(out, in, n); };
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
