// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the second target halves the index: with which == 0 threads 0 and 1 both write s[0]
__device__ int identity(int x) { return x; }
__device__ int mirror(int x) { return x / 2; }

__global__ void permute(const float *in, float *out, int n, int which) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int (*f)(int) = which ? identity : mirror;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[f(t)] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[t];
}
