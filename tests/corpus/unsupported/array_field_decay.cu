// expect: unknown
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: an array field of a pointer-to-struct parameter is modelled only subscripted in place
// note: (ps[i].bins[b]); its decay to a pointer is not, so nothing may be proven through it
struct Hist {
  int count;
  float bins[8];
};

__global__ void clear(Hist *ps, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(ps) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float *b = ps[i / 2].bins;
    b[0] = 0.0f;
  }
}
