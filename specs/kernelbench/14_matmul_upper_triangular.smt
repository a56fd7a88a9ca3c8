; KernelBench level 1, problem 14 (14_Matmul_for_upper_triangular_matrices.py): torch.triu(torch.matmul(A, B)).
(spec kb14_matmul_upper_triangular
  (doc "triu(A B) for N x N matrices (row-major): C[i][j] = sum over k < N of A[i][k] B[k][j] where j >= i, and 0 below the diagonal (j < i). Written as one sum whose range is empty below the diagonal, sum over k < (i <= j ? N : 0), which is the same value (ksynth's prover does not split an ite around a sum by the store's path condition). KernelBench generates A and B upper triangular, but forward does not rely on it and a spec cannot assume it: the sum runs over every k (for triangular inputs only i <= k <= j contribute), so a kernel summing k in [i, j] alone does not meet it. Over the reals.")
  (dims N)
  (assume (<= (* N N) 2147483647))
  (tensor A f32 (N N) in)
  (tensor B f32 (N N) in)
  (tensor C f32 (N N) out)
  (sizes (N 4096))
  (ensures (C i j) (sum k 0 (ite (<= i j) N 0) (* (A i k) (B k j)))))
