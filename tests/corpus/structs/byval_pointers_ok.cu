// expect: proven
// args: --block 256 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: a struct passed by value carries two pointers; each thread copies its own element
struct Buffers {
  const float *src;
  float *dst;
  int n;
};

__global__ void copy(Buffers b) {
  __requires(__len(b.src) >= b.n && __len(b.dst) >= b.n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.dst[i] = b.src[i];
}
