; KernelBench level 1, problem 20 (20_LeakyReLU.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb20_leaky_relu
  (doc "LeakyReLU with the default negative_slope 0.01 (the constructor's default; get_init_inputs passes none): Y = x for x > 0, else 0.01 x (torch: x > 0 ? x : x * slope).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (ite (> x 0.0) x (* 0.01 x)))))
