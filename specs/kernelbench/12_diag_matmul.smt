; KernelBench level 1, problem 12 (12_Matmul_with_diagonal_matrices_.py): torch.diag(A) @ B, A a vector of N.
(spec kb12_diag_matmul
  (doc "diag(A) B: A is a vector of N (the diagonal), B is N x M, C is N x M (row-major). forward forms the N x N matrix D = diag(A) and computes C[i][j] = sum over k < N of D[i][k] B[k][j]; every term but k = i is 0 B[k][j] = 0, so C[i][j] = A[i] B[i][j] (row i of B scaled by A[i]), stated so here; equal over the reals, and in floats too for finite B (adding exact zeros), not for an infinite or NaN B[k][j] (0 inf is NaN). Not A * B broadcast, which scales column j by A[j].")
  (dims N M)
  (assume (<= (* N M) 2147483647) (<= N 1048560)) ; gridDim.y = (N + 15) / 16 <= 65535
  (tensor A f32 (N) in)
  (tensor B f32 (N M) in)
  (tensor C f32 (N M) out)
  (sizes (N 4096) (M 4096))
  (ensures (C i j) (* (A i) (B i j))))
