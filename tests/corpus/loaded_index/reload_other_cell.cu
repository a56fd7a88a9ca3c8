// expect: unknown
// args: --block 64 --grid 1 --checks bounds,overflow
// note: the guard reads idx[t] but the store uses idx[t ^ 1]: out of bounds for some inputs,
// so not proven (input-dependent, hence unknown rather than refuted)
__global__ void k(const int *idx, float *out) {
  __requires(__len(idx) >= 64 && __len(out) >= 64);
  unsigned t = threadIdx.x;
  if (idx[t] >= 0 && idx[t] < 64)
    out[idx[t ^ 1]] = 1.0f;
}
