// ksynth:spec kernelbench/12_diag_matmul expect=equivalence
// Buggy twin of kb12_diag_matmul: computes A * B with A broadcast along B's rows (PyTorch's
// broadcasting of a vector): C[i][j] = A[j] B[i][j], which is B diag(A), not diag(A) B (the
// same only where A is constant). It reads A out of bounds where M > N, though not at
// KernelBench's N = M.
// ksynth:launch grid=((M + 15) / 16, (N + 15) / 16) block=(16, 16)
__global__ void kb12_diag_matmul(const float *A, const float *B, float *C, int N, int M) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < M)
    C[i * M + j] = A[j] * B[i * M + j];
}
