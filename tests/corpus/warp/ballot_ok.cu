// expect: proven
// args: --block 128
// note: __ballot_sync, __any_sync and __reduce_add_sync over the full warp; lane 0 writes the warp's results
#define FULL 0xffffffffu
__global__ void votes(const int *x, unsigned *mask, int *any, unsigned *count, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(mask) >= n / 32 + 1 && __len(any) >= n / 32 + 1 && __len(count) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned m = __ballot_sync(FULL, v > 0);
  int a = __any_sync(FULL, v < 0);
  unsigned c = __reduce_add_sync(FULL, (unsigned)(v != 0));
  if (threadIdx.x % 32 == 0 && i < n) {
    mask[i / 32] = m;
    any[i / 32] = a;
    count[i / 32] = c;
  }
}
