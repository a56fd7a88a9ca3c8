; KernelBench level 1, problem 30 (30_Softsign.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb30_softsign
  (doc "Softsign: Y = x / (1 + |x|), elementwise.")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (/ x (+ 1.0 (abs x))))))
