// expect: proven
// args: --block 256 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: source and destination swap with the iteration's parity; they are never the same
__global__ void step(float *a, float *b, int iter) {
  __requires(__len(a) >= 256 && __len(b) >= 256);
  float *src = iter % 2 ? a : b;
  float *dst = iter % 2 ? b : a;
  unsigned t = threadIdx.x;
  dst[t] = src[(t + 1) % 256];
}
