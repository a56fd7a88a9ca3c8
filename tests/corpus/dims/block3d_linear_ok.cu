// expect: proven
// args: --block 16,4,4 --grid 64 --checks race,barrier,bounds,overflow,assert
// note: 3D block linearised to 0..255; concrete grid keeps blockIdx.x * 256 small
__global__ void reverse3d(const float *in, float *out, int n) {
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[255 - tid];
}
