// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the early return is uniform per block (depends only on blockIdx), so it is fine
__global__ void reverse_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  int i = base + t;
  if (base >= n)
    return;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[255 - t];
}
