// expect: proven
// args: --block 64 --grid 1 --checks race
// note: as instances_by_range_input, with a test no value of either type passes (v > 255 for
// note: signed and unsigned char): both instances proven, the second from the first's answers
// note: where the queries agree
template <typename T>
__global__ void shift_by_flag(const T *flag, int *out) {
  T v = flag[0];
  out[threadIdx.x + (v > 255 && threadIdx.x == 0 ? 1 : 0)] = threadIdx.x;
}
template __global__ void shift_by_flag<signed char>(const signed char *, int *);
template __global__ void shift_by_flag<unsigned char>(const unsigned char *, int *);
