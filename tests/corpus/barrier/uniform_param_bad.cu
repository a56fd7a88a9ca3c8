// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: smooth > t differs between threads (smooth = 5: only threads 0..4 reach the barrier)
__global__ void maybe_smooth(const float *in, float *out, int n, int smooth) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (smooth > t) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) % 256]);
  }
  if (i < n)
    out[i] = v;
}
