(spec mse_loss
  (doc "Mean squared error between predictions P and targets T (a single value).")
  (dims N)
  (assume (<= N 1073741824))
  (tensor P f32 (N) in)
  (tensor T f32 (N) in)
  (tensor L f32 () out)
  (ensures (L) (/ (sum i 0 N (* (- (P i) (T i)) (- (P i) (T i)))) N)))
