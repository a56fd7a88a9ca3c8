// expect: unknown
// args: --block 64 --grid 1 --checks race
// note: a non-atomic histogram races exactly when two inputs are equal: input-dependent, so
// unknown (with that input as the example), not refuted
__global__ void hist(const int *data, int *bins) {
  int b = data[threadIdx.x];
  bins[b] = bins[b] + 1;
}
