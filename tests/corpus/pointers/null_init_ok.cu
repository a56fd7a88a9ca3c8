// expect: proven
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: p starts as nullptr and is set to a or b on every path before use; each thread
// note: writes its own element of the array chosen
__global__ void k(float *a, float *b, int n, int which) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(a) >= n && __len(b) >= n);
  float *p = nullptr;
  if (which)
    p = a;
  else
    p = b;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}
