// expect: proven
// args: --block 96
// note: __shfl_sync broadcast of lane 0's value; a srcLane past the width wraps modulo the width
#define FULL 0xffffffffu
__global__ void k(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float first = __shfl_sync(FULL, v, 0);
  float wrapped = __shfl_sync(FULL, v, 35, 8);
  if (i < n)
    out[i] = first + wrapped;
}
