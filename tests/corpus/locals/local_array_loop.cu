// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: stores in a loop leave the local array unknown after it (no loop invariants for
// memory yet), so an index read back from it cannot be trusted
__global__ void k(float *out, int n) {
  __requires(__len(out) >= 64);
  __requires(n >= 1 && n <= 4);
  int idx[4];
  for (int j = 0; j < n; ++j)
    idx[j] = threadIdx.x;
  out[idx[0]] = 1.0f;
}
