(spec gemv
  (doc "Matrix-vector product y = A x, A is M x N.")
  (dims M N)
  (assume (<= M 65536) (<= N 16384))
  (tensor A f32 (M N) in)
  (tensor x f32 (N) in)
  (tensor y f32 (M) out)
  (ensures (y i) (sum j 0 N (* (A i j) (x j)))))
