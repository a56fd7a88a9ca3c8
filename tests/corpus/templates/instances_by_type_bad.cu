// expect: refuted race
// args: --block 256 --grid 1 --checks race
// note: x = 2 * t computed in T: unique for short, but unsigned char wraps at 256, so threads
// note: 0 and 128 both write out[0]; the short instance is proven first and its answers
// note: remembered, which the unsigned char instance must not reuse
template <typename T>
__global__ void twice(int *out) {
  T x = threadIdx.x;
  x = x * 2;
  out[x] = threadIdx.x;
}
template __global__ void twice<short>(int *);
template __global__ void twice<unsigned char>(int *);
