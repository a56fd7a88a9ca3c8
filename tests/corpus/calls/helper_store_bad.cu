// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: shared pointer passed to a helper with index t / 2: threads 0 and 1 both write s[0]
__device__ void put(float *buf, int k, float v) {
  buf[k] = v;
}

__device__ float get(const float *buf, int k) {
  return buf[k];
}

__global__ void reverse_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  put(s, t / 2, i < n ? in[i] : 0.0f);
  __syncthreads();
  if (i < n)
    out[i] = get(s, 255 - t);
}
