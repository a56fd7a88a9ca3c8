// ksynth:spec copy expect=equivalence
// ksynth:launch grid=(1) block=(N)
// As unwritten_shared_cancel, through another thread's cell.
__global__ void copy(int N, const float *a, float *y) {
  __shared__ float s[1024];
  int i = threadIdx.x;
  int j = (i + 1) % N;
  float g = s[j];
  y[i] = a[i] + (g - g);
}
