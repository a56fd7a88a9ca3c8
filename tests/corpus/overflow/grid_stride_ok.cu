// expect: proven
// args: --block 256 --grid 1024 --checks race,barrier,bounds,overflow,assert
// note: concrete grid: stride 2^18, i + stride < 2^30 + 2^18
__global__ void scale(float *a, int n) {
  __requires(n <= 1 << 30);
  __requires(__len(a) >= n);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = 2.0f * a[i];
}
