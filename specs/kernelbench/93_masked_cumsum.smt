; KernelBench level 1, problem 93: torch.cumsum(x * mask, dim=1), mask a bool tensor of x's shape.
(spec kb93_masked_cumsum
  (doc "Prefix sum along dim 1 of X where the mask is set: Y[b][i] = sum over k <= i of (M[b][k] ? X[b][k] : 0). The bool mask is a u8 tensor (one byte per element, as torch.bool); a nonzero byte is true (torch's bools are 0 or 1, where x * mask is x or 0).")
  (dims B N)
  (assume (<= B 65535) (<= N 1073741824) (<= (* B N) 2147483647))
  (tensor X f32 (B N) in)
  (tensor M u8 (B N) in)
  (tensor Y f32 (B N) out)
  (ensures (Y b i) (sum k 0 (+ i 1) (ite (= (M b k) 0) 0.0 (X b k))))
  (sizes (B 32768) (N 32768)))
