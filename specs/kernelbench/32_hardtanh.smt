; KernelBench level 1, problem 32 (32_HardTanh.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb32_hardtanh
  (doc "HardTanh with min_val = -1, max_val = 1: Y = min(max(x, -1), 1) (torch clamps: x < -1 gives -1, x > 1 gives 1; NaN propagation aside).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (min (max x (- 1.0)) 1.0))))
