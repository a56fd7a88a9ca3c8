; KernelBench level 1, problem 9 (9_Tall_skinny_matrix_multiplication_.py): torch.matmul(A, B), A is M x N, B is N x M, N small.
(spec kb09_tall_skinny_matmul
  (doc "C = A B with a short inner dimension: A is M x N (tall, skinny), B is N x M, C is M x M (row-major); C[i][j] = sum over k < N of A[i][k] B[k][j]. KernelBench names the inner size N (N = 32) and the outer M (M = 32768); the output is square M x M, not M x N. Over the reals.")
  (dims M N)
  (assume (<= (* M M) 2147483647) (<= (* M N) 2147483647))
  (tensor A f32 (M N) in)
  (tensor B f32 (N M) in)
  (tensor C f32 (M M) out)
  (sizes (M 32768) (N 32))
  (ensures (C i j) (sum k 0 N (* (A i k) (B k j)))))
