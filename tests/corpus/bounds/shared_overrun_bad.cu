// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: s has 256 cells but thread 255 writes s[256]
__global__ void shift_right(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    s[0] = 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[threadIdx.x];
}
