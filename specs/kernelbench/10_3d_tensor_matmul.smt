; KernelBench level 1, problem 10 (10_3D_tensor_matrix_multiplication.py): torch.matmul(A, B), A is N x M x K, B is K x L.
(spec kb10_3d_tensor_matmul
  (doc "A 3-D tensor times a matrix, B broadcast over A's leading dim: A is N x M x K, B is K x L, C is N x M x L (row-major); C[n][i][j] = sum over k < K of A[n][i][k] B[k][j]. The same B for every n. Over the reals.")
  (dims N M K L)
  (assume (<= (* N M K) 2147483647) (<= (* K L) 2147483647) (<= (* N M L) 2147483647)
          (<= M 1048560) (<= N 65535)) ; gridDim.y = (M + 15) / 16 and gridDim.z = N <= 65535
  (tensor A f32 (N M K) in)
  (tensor B f32 (K L) in)
  (tensor C f32 (N M L) out)
  (sizes (N 16) (M 1024) (K 2048) (L 768))
  (ensures (C n i j) (sum k 0 K (* (A n i k) (B k j)))))
