; Accumulation with float atomicAdd; the caller zero-initialises L (or accumulates into it).
(spec mse_loss_acc
  (doc "L = L + the mean squared error between predictions P and targets T (L is a single value updated in place; 0 before the call gives the mean).")
  (dims N)
  (assume (<= N 1073741824))
  (tensor P f32 (N) in)
  (tensor T f32 (N) in)
  (tensor L f32 () inout)
  (ensures (L) (+ (old L) (/ (sum i 0 N (* (- (P i) (T i)) (- (P i) (T i)))) N))))
