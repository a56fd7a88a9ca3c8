; KernelBench level 1, problem 1 (1_Square_matrix_multiplication_.py): torch.matmul(A, B), A and B square.
(spec kb01_square_matmul
  (doc "C = A B for square N x N matrices (row-major): C[i][j] = sum over k < N of A[i][k] B[k][j]. No difference from the naive reading; the sum is over the reals (PyTorch's f32 accumulation order is not modelled).")
  (dims N)
  (assume (<= (* N N) 2147483647))
  (tensor A f32 (N N) in)
  (tensor B f32 (N N) in)
  (tensor C f32 (N N) out)
  (sizes (N 4096))
  (ensures (C i j) (sum k 0 N (* (A i k) (B k j)))))
