; KernelBench level 1, problem 7 (7_Matmul_with_small_K_dimension_.py): torch.matmul(A, B).
(spec kb07_matmul_small_k
  (doc "C = A B with a short reduction (K = 64 in KernelBench) and a large output, A is M x K, B is K x N (row-major): C[i][j] = sum over k < K of A[i][k] B[k][j]. K is a symbolic dim, not the constant 64; the sum is over the reals.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (sizes (M 32768) (K 64) (N 32768))
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
