// expect: proven
// args: --block 256 --grid 1 --checks race
// note: as instances_by_type_bad with types wide enough for 2 * 255: both instances proven
template <typename T>
__global__ void twice(int *out) {
  T x = threadIdx.x;
  x = x * 2;
  out[x] = threadIdx.x;
}
template __global__ void twice<short>(int *);
template __global__ void twice<unsigned short>(int *);
