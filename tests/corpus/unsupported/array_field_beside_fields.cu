// expect: unknown
// args: --block 128 --checks race,barrier,overflow,assert
// note: ps[i].bins[8] is past bins, in memory ps[i + 1].count (4 + 32 bytes into struct i):
// note: thread 0 writes it while thread 1 writes ps[1].count, a race. ksynth keeps each field
// note: in an array of its own, where the two do not meet, so with another field beside the
// note: array field its subscripts are not modelled: the race must not be proven away
struct Hist {
  int count;
  float bins[8];
};

__global__ void flush(Hist *ps, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    ps[i].count = 0;
    ps[i].bins[8] = 0.0f;
  }
}
