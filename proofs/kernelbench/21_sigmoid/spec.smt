; KernelBench level 1, problem 21 (21_Sigmoid.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb21_sigmoid
  (doc "Logistic sigmoid: Y = 1 / (1 + exp(-x)), elementwise (exp uninterpreted).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (/ 1.0 (+ 1.0 (exp (- x)))))))
