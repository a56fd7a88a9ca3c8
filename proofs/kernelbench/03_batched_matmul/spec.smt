; KernelBench level 1, problem 3 (3_Batched_matrix_multiplication.py): torch.bmm(A, B).
(spec kb03_batched_matmul
  (doc "Batched product C[b] = A[b] B[b]: A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N (row-major); C[b][i][j] = sum over k < K of A[b][i][k] B[b][k][j]. Each batch uses its own B (no broadcast). Over the reals.")
  (dims BATCH M K N)
  (assume (<= (* BATCH M K) 2147483647) (<= (* BATCH K N) 2147483647) (<= (* BATCH M N) 2147483647)
          (<= M 1048560) (<= BATCH 65535)) ; gridDim.y = (M + 15) / 16 and gridDim.z = BATCH <= 65535
  (tensor A f32 (BATCH M K) in)
  (tensor B f32 (BATCH K N) in)
  (tensor C f32 (BATCH M N) out)
  (sizes (BATCH 128) (M 512) (K 1024) (N 2048))
  (ensures (C b i j) (sum k 0 K (* (A b i k) (B b k j)))))
