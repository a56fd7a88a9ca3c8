// expect: proven
// args: --block 256 --grid 128 --checks race,barrier,bounds,overflow,assert
// note: grid-stride loop; concrete grid so i + stride <= 2^30 + 32768 cannot overflow
__global__ void saxpy(float a, const float *x, float *y, int n) {
  __requires(n <= 1 << 30);
  __requires(__len(x) >= n);
  __requires(__len(y) >= n);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
