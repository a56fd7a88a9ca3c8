; KernelBench level 1, problem 18 (18_Matmul_with_transposed_both.py): torch.matmul(A.T, B.T), A is K x M, B is N x K.
(spec kb18_matmul_transposed_both
  (doc "C = A^T B^T: A is stored K x M, B is stored N x K, C is M x N (row-major); C[i][j] = sum over k < K of A[k][i] B[j][k]. forward's docstring says A is M x K and B K x N, but get_inputs makes A K x M and B N x K, as here. Over the reals.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (K M) in)
  (tensor B f32 (N K) in)
  (tensor C f32 (M N) out)
  (sizes (M 2048) (K 8192) (N 4096))
  (ensures (C i j) (sum k 0 K (* (A k i) (B j k)))))
