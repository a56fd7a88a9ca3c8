; KernelBench level 1, problem 17 (17_Matmul_with_transposed_B.py): torch.matmul(A, B.T), A is M x K, B is N x K.
(spec kb17_matmul_transposed_b
  (doc "C = A B^T: A is M x K, B is stored N x K, C is M x N (row-major); C[i][j] = sum over k < K of A[i][k] B[j][k]. forward's docstring says B is K x N, but get_inputs makes B N x K (B.T is K x N), as here. Over the reals.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (M K) in)
  (tensor B f32 (N K) in)
  (tensor C f32 (M N) out)
  (sizes (M 2048) (K 8192) (N 4096))
  (ensures (C i j) (sum k 0 K (* (A i k) (B j k)))))
