// ksynth:launch grid=((K + 255) / 256, J, BATCH * I) block=(256)
// KernelBench 11: one thread per element of C: k on x, j on y, (b, i) on z split by / and %; a
// loop over l. 64-bit index arithmetic (C has 2^29.6 elements at KernelBench's sizes, but
// the spec admits more).
__global__ void kb11_4d_tensor_matmul(const float *A, const float *B, float *C, int BATCH, int I, int J, int L, int K) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y;
  int b = blockIdx.z / I, i = blockIdx.z % I;
  if (k < K) {
    float acc = 0.0f;
    for (int l = 0; l < L; ++l)
      acc += A[(((long long)b * I + i) * J + j) * L + l] * B[(long long)l * K + k];
    C[(((long long)b * I + i) * J + j) * K + k] = acc;
  }
}
