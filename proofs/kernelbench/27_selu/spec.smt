; KernelBench level 1, problem 27 (27_SELU_.py): an elementwise map on a (batch_size, dim) tensor.
(spec kb27_selu
  (doc "SELU: Y = scale x for x > 0, else scale alpha (exp(x) - 1), with torch's constants alpha = 1.6732632423543772848170429916717 and scale = 1.0507009873554804934193349852946 (torch evaluates it as ELU: x > 0 ? scale x : alpha scale (exp(x) - 1); the branch is on x, not the min/max formula, which needs exp(x) >= 1 for x > 0). The literals below carry 30 (alpha) and 31 (scale) significant digits, the most a spec number holds (numerator below 2^100): they differ from torch's printed constants by under 2e-30, and round to the same float.")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)) (scale 1.050700987355480493419334985295) (alpha 1.67326324235437728481704299167))
      (ite (> x 0.0) (* scale x) (* scale alpha (- (exp x) 1.0))))))
