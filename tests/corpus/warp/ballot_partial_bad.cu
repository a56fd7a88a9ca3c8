// expect: refuted barrier
// args: --block 128
// note: twin of ballot_partial_ok: the ballot's mask names lanes 0..15, but lanes 12..15 skip it
__global__ void votes(const int *x, unsigned *bits, unsigned *sums, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(bits) >= n / 32 + 1 && __len(sums) >= n / 32 + 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  if (threadIdx.x % 32 < 16) {
    unsigned b = threadIdx.x % 32 < 12 ? __ballot_sync(0x0000ffffu, v > 0) : 0u;
    unsigned s = __reduce_add_sync(0x0000ffffu, (unsigned)(v != 0));
    if (threadIdx.x % 32 == 0 && i < n) {
      bits[i / 32] = b;
      sums[i / 32] = s;
    }
  }
}
