// ksynth:spec scale_grid_stride
// ksynth:launch grid=(264) block=(256)
// A fixed grid (two blocks of 256 per SM on a 132-SM GPU) sweeps any N with a grid-stride
// loop over float4s (128-bit loads and stores); the N % 4 elements past the last float4 are a
// second grid-stride loop, written relative to the vector part so that no index passes N.
__global__ void scale_grid_stride_f4(const float *__restrict__ X, float *__restrict__ Y, float alpha, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = N / 4;
  const float4 *X4 = reinterpret_cast<const float4 *>(X);
  float4 *Y4 = reinterpret_cast<float4 *>(Y);
  for (int i = tid; i < n4; i += stride) {
    float4 v = X4[i];
    v.x *= alpha;
    v.y *= alpha;
    v.z *= alpha;
    v.w *= alpha;
    Y4[i] = v;
  }
  for (int i = tid; i < N - 4 * n4; i += stride)
    Y[4 * n4 + i] = alpha * X[4 * n4 + i];
}
