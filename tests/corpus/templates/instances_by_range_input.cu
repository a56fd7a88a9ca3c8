// expect: unknown
// args: --block 64 --grid 1 --checks race
// note: the instances differ only in the element type, so their race queries differ only in
// note: the range of the loaded value v; the first (signed char, v <= 127) is proven and its
// note: answers are remembered for later instances; the second (unsigned char) must not reuse
// note: them: v = 128 sends thread 0 to out[1], where thread 1 writes another value (a race that
// note: depends on the input, hence unknown, never proven)
template <typename T>
__global__ void shift_by_flag(const T *flag, int *out) {
  T v = flag[0];
  out[threadIdx.x + (v > 127 && threadIdx.x == 0 ? 1 : 0)] = threadIdx.x;
}
template __global__ void shift_by_flag<signed char>(const signed char *, int *);
template __global__ void shift_by_flag<unsigned char>(const unsigned char *, int *);
