// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: stride 128 with 256 threads: threads 0 and 128 both store tile[128] (same value, still a race)
__global__ void apply_table(const float *table, const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(table) >= 1024);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float tile[1024];
  int t = threadIdx.x;
  for (int j = t; j < 1024; j += 128)
    tile[j] = table[j];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * tile[i % 1024];
}
