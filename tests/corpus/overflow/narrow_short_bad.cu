// expect: refuted overflow
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: the int-to-short conversion is modelled as defined modular behaviour (C++20), so only the resulting race/bounds errors are reported, not an overflow
// note: global index stored in a short: block 128 thread 0 (index 32768) does not fit
__global__ void clear(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 32767);
  __requires(__len(a) >= n);
  short i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.0f;
}
