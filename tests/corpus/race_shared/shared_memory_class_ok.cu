// expect: proven
// args: --checks race,barrier,overflow,assert
// note: the CUDA samples' SharedMemory<T> idiom: a conversion operator returns the dynamic
// note: shared array; the tree loop doubles an unsigned s while s < blockDim.x, with a barrier
// note: after each step, so no step reads a cell another thread writes in it; ksynth defines
// note: __CUDACC__ as nvcc does (the #error would stop the parse otherwise)
#ifndef __CUDACC__
#error nvcc defines __CUDACC__ in every .cu file
#endif
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T> __global__ void reduce0(const T *in, T *out, unsigned n) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1);
  __requires(blockDim.x <= 256);
  __requires(__len(in) >= n && __len(out) >= gridDim.x);
  T *s = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    if (tid % (2 * d) == 0 && tid + d < blockDim.x)
      s[tid] += s[tid + d];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
template __global__ void reduce0<float>(const float *, float *, unsigned);
