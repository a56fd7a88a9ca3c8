// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a forward goto (an early exit of the search) skips to the store of the thread's slot
__global__ void find(const int *in, int *out, int key) {
  __requires(__len(in) >= 256 && __len(out) >= 64);
  int pos = -1;
  for (int k = 0; k < 4; ++k) {
    if (in[threadIdx.x * 4 + k] == key) {
      pos = k;
      goto done;
    }
  }
done:
  out[threadIdx.x] = pos;
}
