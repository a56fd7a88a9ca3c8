// ksynth:launch grid=((N + 127) / 128) block=(128)
// In-place update: each thread reads and writes its own element of y.
__global__ void saxpy(int N, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    y[i] = a * x[i] + y[i];
}
