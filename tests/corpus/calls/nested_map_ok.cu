// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__device__ int row_of(int t) { return t / 16; }
__device__ int col_of(int t) { return t % 16; }

__global__ void transpose_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[16][16];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[row_of(t)][col_of(t)] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[col_of(t)][row_of(t)];
}
