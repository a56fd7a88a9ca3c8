// expect: proven
// args: --block 128
// note: __ballot_sync and __reduce_add_sync with the mask 0x0000ffff in lanes 0..15: only the named lanes vote
__global__ void votes(const int *x, unsigned *bits, unsigned *sums, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(bits) >= n / 32 + 1 && __len(sums) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  if (threadIdx.x % 32 < 16) {
    unsigned b = __ballot_sync(0x0000ffffu, v > 0);
    unsigned s = __reduce_add_sync(0x0000ffffu, (unsigned)(v != 0));
    if (threadIdx.x % 32 == 0 && i < n) {
      bits[i / 32] = b;
      sums[i / 32] = s;
    }
  }
}
