; KernelBench level 1, problem 29 (29_Softplus.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb29_softplus
  (doc "Softplus with torch's defaults beta = 1, threshold = 20: Y = x where x > 20 (torch reverts to the identity above the threshold), else log(1 + exp(x)) (torch: log1p(exp(x))).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (ite (> x 20.0) x (log (+ 1.0 (exp x)))))))
