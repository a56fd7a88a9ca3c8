(spec relu
  (doc "Rectified linear unit: Y = max(X, 0), elementwise.")
  (dims N)
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i) (max (X i) 0.0)))
