// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: each thread copies exactly its own struct (sizeof bytes)
struct Rec {
  short a, b;
  float w;
};

__global__ void copy(const Rec *in, Rec *out) {
  __requires(__len(in) >= 64 && __len(out) >= 64);
  memcpy(&out[threadIdx.x], &in[threadIdx.x], sizeof(Rec));
}
