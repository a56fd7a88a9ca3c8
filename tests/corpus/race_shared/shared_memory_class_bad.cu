// expect: refuted race
// args: --checks race,barrier,overflow,assert
// note: the SharedMemory<T> idiom with the barriers moved out of the tree loop: thread 0 reads
// note: s[d] at step d while thread d wrote it before the loop, with no barrier between (d = 8,
// note: blockDim.x = 16)
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
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    if (tid % (2 * d) == 0 && tid + d < blockDim.x)
      s[tid] += s[tid + d];
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
template __global__ void reduce0<float>(const float *, float *, unsigned);
