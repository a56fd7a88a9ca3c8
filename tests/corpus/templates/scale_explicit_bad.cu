// expect: refuted bounds
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: i <= n: with n = 0 thread 0 of block 0 writes y[0] of a zero-length array, in both instances
template <typename T>
__device__ T times(T a, T v) { return a * v; }

template <typename T>
__global__ void scale(T *y, const T *x, T a, int n) {
  __requires(n >= 0 && __len(x) >= n && __len(y) >= n && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    y[i] = times(a, x[i]);
}
template __global__ void scale<float>(float *, const float *, float, int);
template __global__ void scale<double>(double *, const double *, double, int);
