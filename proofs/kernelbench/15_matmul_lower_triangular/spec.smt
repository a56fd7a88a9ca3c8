; KernelBench level 1, problem 15 (15_Matmul_for_lower_triangular_matrices.py): torch.tril(torch.matmul(A, B)).
(spec kb15_matmul_lower_triangular
  (doc "tril(A B) for M x M matrices (row-major; KernelBench names the size M): C[i][j] = sum over k < M of A[i][k] B[k][j] where j <= i, and 0 above the diagonal (j > i). Written as one sum whose range is empty above the diagonal, sum over k < (j <= i ? M : 0), which is the same value (ksynth's prover does not split an ite around a sum by the store's path condition). KernelBench generates A and B lower triangular, but forward does not rely on it and a spec cannot assume it: the sum runs over every k (for triangular inputs only j <= k <= i contribute), so a kernel summing k in [j, i] alone does not meet it. Over the reals.")
  (dims M)
  (assume (<= (* M M) 2147483647))
  (tensor A f32 (M M) in)
  (tensor B f32 (M M) in)
  (tensor C f32 (M M) out)
  (sizes (M 4096))
  (ensures (C i j) (sum k 0 (ite (<= j i) M 0) (* (A i k) (B k j)))))
