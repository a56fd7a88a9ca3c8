// expect: refuted race
// args: --block 256 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: every thread of the grid writes b.dst[0]: threads 0 and 1 race
struct Buffers {
  const float *src;
  float *dst;
  int n;
};

__global__ void copy(Buffers b) {
  __requires(__len(b.src) >= b.n && __len(b.dst) >= b.n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.dst[0] = b.src[i];
}
