; KernelBench level 1, problem 28 (28_HardSigmoid.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb28_hardsigmoid
  (doc "HardSigmoid as torch defines it: relu6(x + 3) / 6 = min(max(x + 3, 0), 6) / 6 (not the 0.2 x + 0.5 of some other libraries).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (/ (min (max (+ x 3.0) 0.0) 6.0) 6.0))))
