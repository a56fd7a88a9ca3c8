; KernelBench level 1, problem 22 (22_Tanh.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb22_tanh
  (doc "Hyperbolic tangent, elementwise: Y = tanh(x) (tanh uninterpreted).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (tanh x))))
