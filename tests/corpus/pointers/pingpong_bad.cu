// expect: refuted race
// args: --block 256 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: with iter = 3 both pointers name b: thread 255 reads b[0] while thread 0 writes it
__global__ void step(float *a, float *b, int iter) {
  __requires(__len(a) >= 256 && __len(b) >= 256);
  float *src = iter % 2 ? a : b;
  float *dst = iter % 3 ? b : a;
  unsigned t = threadIdx.x;
  dst[t] = src[(t + 1) % 256];
}
