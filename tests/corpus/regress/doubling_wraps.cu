// expect: refuted assert
// args: --block 32 --grid 1 --checks assert
// note: an unsigned variable doubled until it is 0 gets there by wrapping around, after 32
// note: steps: a closed form 2^i (never 0) must not be used for it, so c < 32 fails (c = 32)
__global__ void k(int *out) {
  unsigned s = 1;
  int c = 0;
  for (; s != 0; s *= 2)
    c++;
  __assert(c < 32);
  out[threadIdx.x] = c;
}
