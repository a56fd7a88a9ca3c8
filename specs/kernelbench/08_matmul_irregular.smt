; KernelBench level 1, problem 8 (8_Matmul_with_irregular_shapes_.py): torch.matmul(A, B).
(spec kb08_matmul_irregular
  (doc "C = A B for irregular (non-multiple-of-tile) shapes, A is M x K, B is K x N (row-major): C[i][j] = sum over k < K of A[i][k] B[k][j]. Every M, K, N is admitted, none a multiple of a tile size; the sum is over the reals.")
  (dims M K N)
  (assume (<= (* M K) 2147483647) (<= (* K N) 2147483647) (<= (* M N) 2147483647)
          (<= M 1048560)) ; gridDim.y = (M + 15) / 16 <= 65535
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (sizes (M 8205) (K 2949) (N 5921))
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
