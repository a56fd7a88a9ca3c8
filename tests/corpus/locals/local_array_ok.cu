// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: indices kept in a thread-local array (one rewritten under a branch), read back exactly
__global__ void k(float *out) {
  __requires(__len(out) >= 128);
  int idx[2];
  idx[0] = threadIdx.x;
  idx[1] = threadIdx.x + 64;
  if (threadIdx.x % 2 == 1)
    idx[0] = (threadIdx.x / 2) * 2 + 1; // the same value, written on one branch
  out[idx[0]] = 1.0f;
  out[idx[1]] = 2.0f;
}
