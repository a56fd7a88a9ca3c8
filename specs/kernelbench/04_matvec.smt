; KernelBench level 1, problem 4 (4_Matrix_vector_multiplication_.py): torch.matmul(A, B), B a K x 1 column.
(spec kb04_matvec
  (doc "Matrix-vector product with 2-D operands: A is M x K, B is K x 1, C is M x 1 (row-major); C[i][0] = sum over k < K of A[i][k] B[k][0]. The trailing extent 1 is kept (C is a column, not a vector). KernelBench's A has M K = 2^31 elements, so indices need 64 bits. Over the reals.")
  (dims M K)
  (assume (<= (* M K) 1099511627776) ; 64-bit offsets (long long) i K + k
          (<= M 2147483647)           ; gridDim.x = M
          (<= K 2147483391))          ; k + blockDim.x (256) fits an int
  (tensor A f32 (M K) in)
  (tensor B f32 (K 1) in)
  (tensor C f32 (M 1) out)
  (sizes (M 2048) (K 1048576))
  (ensures (C i c) (sum k 0 K (* (A i k) (B k c)))))
