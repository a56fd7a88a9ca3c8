; KernelBench level 1, problem 5 (5_Matrix_scalar_multiplication.py): C = A * s.
(spec kb05_matrix_scalar
  (doc "Matrix times scalar: C[i][j] = A[i][j] * s for an (M, N) matrix A. s is a forward() argument (3.14 in get_inputs), so it is a run-time scalar, not a constant.")
  (dims M N)
  (scalar s f32)
  (assume (<= (* M N) 2147483392)) ; the flat index, rounded up to a block of 256, fits an int
  (sizes (M 65536) (N 16384))
  (tensor A f32 (M N) in)
  (tensor C f32 (M N) out)
  (ensures (C i j) (* (A i j) s)))
