// expect: refuted overflow
// note: the twin of product_precondition_ok with the product bounded by 2^32: b * N + i overflows.
__global__ void copy_rows(const float *X, float *Y, int B, int N) {
  __requires(B >= 1 && N >= 1 && B <= 65535 && N <= 1073741824 && (long long)B * N <= 4294967296LL);
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.y == B && gridDim.z == 1 && gridDim.x * blockDim.x >= N);
  __requires(__len(X) >= (long long)B * N && __len(Y) >= (long long)B * N);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N)
    Y[b * N + i] = X[b * N + i];
}
