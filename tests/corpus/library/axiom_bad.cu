// expect: refuted bounds
// args: --block 64 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: n may be 257: thread 0 then writes a[n - 1 - 0] = a[256], one past the end
__axiom(gridDim.y == 1 && gridDim.z == 1);

__global__ void k(int *a, int n) {
  __requires(__len(a) >= 256);
  __requires(n <= 257);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[n - 1 - i] = 0;
}
