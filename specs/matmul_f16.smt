; C = A·B with half-precision operands and an f32 result (the tensor cores' product), row-major.
(spec matmul_f16
  (doc "Dense matrix product C = A B of f16 matrices, accumulated and returned in f32 (row-major).")
  (dims M N K)
  (assume (<= M 16384) (<= N 16384) (<= K 16384))
  (tensor A f16 (M K) in)
  (tensor B f16 (K N) in)
  (tensor C f32 (M N) out)
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
