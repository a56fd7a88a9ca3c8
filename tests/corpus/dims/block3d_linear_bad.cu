// expect: refuted race
// args: --block 16,4,4 --grid 64 --checks race,barrier,bounds,overflow,assert
// note: wrong linearisation: (z=0, y=1, x=0) and (z=0, y=0, x=4) both get tid 4
__global__ void reverse3d(const float *in, float *out, int n) {
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int tid = threadIdx.z * blockDim.x + threadIdx.y * blockDim.y + threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[255 - tid];
}
