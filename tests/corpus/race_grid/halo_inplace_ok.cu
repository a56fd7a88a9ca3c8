// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void shift_left(float *a, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i + 1 < n)
    v = a[i + 1];
  __syncthreads();
  if (i + 1 < n)
    out[i] = v;
}
