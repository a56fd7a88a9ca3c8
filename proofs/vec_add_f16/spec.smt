(spec vec_add_f16
  (doc "Elementwise sum of two half-precision vectors (stored and added in f16).")
  (dims N)
  (assume (<= N 1000000000))
  (tensor A f16 (N) in)
  (tensor B f16 (N) in)
  (tensor C f16 (N) out)
  (ensures (C i) (+ (A i) (B i))))
