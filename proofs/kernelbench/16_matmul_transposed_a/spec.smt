; KernelBench level 1, problem 16 (16_Matmul_with_transposed_A.py): torch.matmul(A.T, B), A is K x M, B is K x N.
(spec kb16_matmul_transposed_a
  (doc "C = A^T B: A is stored K x M, B is K x N, C is M x N (row-major); C[i][j] = sum over k < K of A[k][i] B[k][j]. forward's docstring says A is M x K, but get_inputs makes A K x M (A.T is M x K), as here. Over the reals.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (K M) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (sizes (M 2048) (K 8192) (N 4096))
  (ensures (C i j) (sum k 0 K (* (A k i) (B k j)))))
