// expect: proven
// note: b * N + i fits an int only because the precondition bounds the product B * N; a bound on a
// compound term (B * N) that the simplifier learns from the precondition must also reach the
// solver, or the precondition itself folds away and a false overflow is "found" at B * N > 2^31.
__global__ void copy_rows(const float *X, float *Y, int B, int N) {
  __requires(B >= 1 && N >= 1 && B <= 65535 && N <= 1073741824 && B * N <= 2147483647);
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.y == B && gridDim.z == 1 && gridDim.x * blockDim.x >= N);
  __requires(__len(X) >= B * N && __len(Y) >= B * N);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N)
    Y[b * N + i] = X[b * N + i];
}
