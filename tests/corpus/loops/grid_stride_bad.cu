// expect: refuted race
// args: --block 256 --grid 128 --checks race,barrier,bounds,overflow,assert
// note: stride gridDim.x (128) instead of the grid size: threads 0 and 128 of block 0 both
// note: update y[128] (n >= 129)
__global__ void saxpy(float a, const float *x, float *y, int n) {
  __requires(n <= 1 << 30);
  __requires(__len(x) >= n);
  __requires(__len(y) >= n);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x)
    y[i] = a * x[i] + y[i];
}
