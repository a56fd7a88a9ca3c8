// expect: proven
// args: --block 256
// note: int4 views read and written with the streaming intrinsics __ldcs/__stcs (a plain load and store to ksynth); the view is at 4 ints per thread
__global__ void relu_i4(const int *x, int *y, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(y) >= n);
  __requires(n <= 1 << 28 && gridDim.x <= 1 << 20);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    int4 v = __ldcs(reinterpret_cast<const int4 *>(x + i));
    v.x = max(v.x, 0);
    v.y = max(v.y, 0);
    v.z = max(v.z, 0);
    v.w = max(v.w, 0);
    __stcs(reinterpret_cast<int4 *>(y + i), v);
  }
}
