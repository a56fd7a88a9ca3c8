; KernelBench level 1, problem 26 (26_GELU_.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb26_gelu
  (doc "GELU, exact (erf) form, torch.nn.functional.gelu's default approximate='none': Y = 0.5 x (1 + erf(x / sqrt 2)). Not the tanh approximation (that is problem 88).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (* 0.5 x (+ 1.0 (erf (/ x (sqrt 2.0))))))))
