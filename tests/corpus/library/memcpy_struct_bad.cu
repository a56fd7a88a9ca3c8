// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: copying sizeof(Rec) + 2 bytes also writes field a of the next element: thread 0
// writes out[1].a, which thread 1 writes too
struct Rec {
  short a, b;
  float w;
};

__global__ void copy(const Rec *in, Rec *out) {
  __requires(__len(in) >= 65 && __len(out) >= 65);
  memcpy(&out[threadIdx.x], &in[threadIdx.x], sizeof(Rec) + 2);
}
