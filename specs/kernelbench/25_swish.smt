; KernelBench level 1, problem 25 (25_Swish.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb25_swish
  (doc "Swish (SiLU): Y = x * sigmoid(x) = x * (1 / (1 + exp(-x))), as the model writes it (a product with torch.sigmoid, not x / (1 + exp(-x)), which differs over the reals only where 1 + exp(-x) = 0 for an uninterpreted exp).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (* x (/ 1.0 (+ 1.0 (exp (- x))))))))
