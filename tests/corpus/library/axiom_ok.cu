// expect: proven
// args: --block 64 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: a file-scope axiom pins n; with it every write is in bounds
__axiom(gridDim.y == 1 && gridDim.z == 1);

__global__ void k(int *a, int n) {
  __requires(__len(a) >= 256);
  __requires(n <= 256);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0;
}
