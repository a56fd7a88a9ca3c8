// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: unsigned grid-stride loop; n <= 2^31 and stride < 2^31 so i + stride never wraps
__global__ void scale(float *a, unsigned n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1u << 31);
  __requires(__len(a) >= n);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = 2.0f * a[i];
}
