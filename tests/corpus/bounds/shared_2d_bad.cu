// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: t / 15 reaches 17 for t = 255: tile[17][15] is past the 16x16 array
__global__ void tile_transpose(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float tile[16][16];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[t / 15][t % 16] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[t % 16][t / 16];
}
