; KernelBench level 1, problem 6 (6_Matmul_with_large_K_dimension_.py): torch.matmul(A, B).
(spec kb06_matmul_large_k
  (doc "C = A B with a long reduction (K = 524288 in KernelBench), A is M x K, B is K x N (row-major): C[i][j] = sum over k < K of A[i][k] B[k][j]. Over the reals: the rounding of a long f32 sum (and any split-K order) is not modelled.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (sizes (M 256) (K 524288) (N 256))
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
