; KernelBench level 1, problem 2 (2_Standard_matrix_multiplication_.py): torch.matmul(A, B).
(spec kb02_standard_matmul
  (doc "C = A B, A is M x K, B is K x N (row-major): C[i][j] = sum over k < K of A[i][k] B[k][j]. No difference from the naive reading; the sum is over the reals (PyTorch's f32 accumulation order is not modelled).")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (sizes (M 2048) (K 8192) (N 4096))
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
