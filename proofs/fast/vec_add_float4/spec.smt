; Elementwise sum of two vectors.
(spec vec_add
  (doc "C = A + B, elementwise.")
  (dims N)
  (tensor A f32 (N) in)
  (tensor B f32 (N) in)
  (tensor C f32 (N) out)
  (ensures (C i) (+ (A i) (B i))))
