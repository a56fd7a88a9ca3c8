// expect: refuted barrier
// args: --block 128
// note: the twin of reduce_minmax_ok.cu: __reduce_max_sync is reached only by the lanes below 16 while its mask names all 32
#define FULL 0xffffffffu
__global__ void minmax(const int *x, int *lo, int *hi, int *allpos, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(lo) >= n / 32 + 1 && __len(hi) >= n / 32 + 1 && __len(allpos) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  int a = __reduce_min_sync(FULL, v);
  int b = 0;
  if (threadIdx.x % 32 < 16)
    b = __reduce_max_sync(FULL, v);
  int p = __all_sync(FULL, v > 0);
  if (threadIdx.x % 32 == 0 && i < n) {
    lo[i / 32] = a;
    hi[i / 32] = b;
    allpos[i / 32] = p;
  }
}
