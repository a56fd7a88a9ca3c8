// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: idx[1] = t + 63 overlaps idx[0] = t of the next thread: thread 0 writes out[63]
// through idx[1] and thread 63 writes out[63] through idx[0]
__global__ void k(float *out) {
  __requires(__len(out) >= 128);
  int idx[2];
  idx[0] = threadIdx.x;
  idx[1] = threadIdx.x + 63;
  out[idx[0]] = 1.0f;
  out[idx[1]] = 2.0f;
}
