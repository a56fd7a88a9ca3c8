; KernelBench level 1, problem 13 (13_Matmul_for_symmetric_matrices.py): torch.matmul(A, B), A and B generated symmetric.
(spec kb13_matmul_symmetric
  (doc "C = A B for N x N matrices (row-major) that KernelBench generates symmetric. forward is a plain torch.matmul and a spec cannot assume symmetric inputs, so this is the full product C[i][j] = sum over k < N of A[i][k] B[k][j] for any A and B: a kernel reading B[j][k] for B[k][j] (equal only for symmetric B) does not meet it. Over the reals.")
  (dims N)
  (assume (<= (* N N) 2147483647))
  (tensor A f32 (N N) in)
  (tensor B f32 (N N) in)
  (tensor C f32 (N N) out)
  (sizes (N 4096))
  (ensures (C i j) (sum k 0 N (* (A i k) (B k j)))))
