// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a whole-struct copy into shared memory, a barrier, then a read of a neighbour's struct
struct Pair {
  int a, b;
};

__global__ void rotate(const Pair *in, Pair *out) {
  __requires(__len(in) >= 64 && __len(out) >= 64);
  __shared__ Pair s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[(t + 1) % 64];
}
