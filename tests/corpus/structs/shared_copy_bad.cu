// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: no barrier: thread 0 reads s[1].a while thread 1 writes it
struct Pair {
  int a, b;
};

__global__ void rotate(const Pair *in, Pair *out) {
  __requires(__len(in) >= 64 && __len(out) >= 64);
  __shared__ Pair s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + 1) % 64];
}
