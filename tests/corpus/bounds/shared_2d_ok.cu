// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void tile_transpose(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float tile[16][16];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[t / 16][t % 16] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[t % 16][t / 16];
}
