// ksynth:spec add2d expect=equivalence
// ksynth:launch grid=((N+127)/128, (M+7)/8) block=(32, 8)
// Bug: the float4 path reads B's row 0 for every row.
__global__ void add2d_float4(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                             int N) {
  int i = blockIdx.y * 8 + threadIdx.y;
  int j = (blockIdx.x * 32 + threadIdx.x) * 4;
  if (i >= M)
    return;
  if (N % 4 == 0) {
    if (j < N) {
      float4 a = *reinterpret_cast<const float4 *>(A + i * N + j);
      float4 b = *reinterpret_cast<const float4 *>(B + j);
      *reinterpret_cast<float4 *>(C + i * N + j) = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
  } else {
    for (int k = j; k < j + 4 && k < N; ++k)
      C[i * N + k] = A[i * N + k] + B[i * N + k];
  }
}
