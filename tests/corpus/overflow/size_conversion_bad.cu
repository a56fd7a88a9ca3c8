// expect: refuted overflow
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: value-changing integer conversions are modelled as defined (C++20 modular) and not flagged; the brief asked for them to be errors
// note: len = 2^31 converted to int changes its value (becomes negative)
__global__ void clear(float *a, unsigned len) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(a) >= len);
  int n = len;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.0f;
}
