; C = A·B, row-major, for every admitted M, N, K (one thread per output element).
(spec matmul
  (doc "Dense matrix product C = A B (row-major).")
  (dims M N K)
  (assume (<= M 16384) (<= N 16384) (<= K 16384))
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
