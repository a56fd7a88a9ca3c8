// expect: proven
// args: --block 64 --grid 1 --checks bounds,overflow
// note: idx is never written, so both reads of idx[t] see the same value: the guard protects
// the store
__global__ void k(const int *idx, float *out) {
  __requires(__len(idx) >= 64 && __len(out) >= 64);
  unsigned t = threadIdx.x;
  if (idx[t] >= 0 && idx[t] < 64)
    out[idx[t]] = 1.0f;
}
