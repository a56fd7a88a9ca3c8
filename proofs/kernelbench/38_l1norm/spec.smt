; KernelBench level 1, problem 38: x / mean(|x|, dim=1, keepdim=True) on a 2-D tensor.
(spec kb38_l1norm
  (doc "Y[b][d] = X[b][d] / ((sum over e < D of |X[b][e]|) / D): each row divided by the MEAN of its absolute values (not by the L1 norm, the sum, as the name suggests; no eps, so an all-zero row divides by zero).")
  (dims B D)
  (assume (<= (* B D) 2147483647) (<= D 1073741824))
  (sizes (B 32768) (D 65535))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (define (mabs b) (/ (sum e 0 D (abs (X b e))) D))
  (ensures (Y b d) (/ (X b d) (mabs b))))
