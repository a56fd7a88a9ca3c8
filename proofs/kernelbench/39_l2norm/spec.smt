; KernelBench level 1, problem 39: x / torch.norm(x, p=2, dim=1, keepdim=True) on a 2-D tensor.
(spec kb39_l2norm
  (doc "Y[b][d] = X[b][d] / sqrt(sum over e < D of X[b][e]^2): each row divided by its Euclidean norm (no eps, unlike F.normalize, so an all-zero row divides by zero).")
  (dims B D)
  (assume (<= (* B D) 2147483647) (<= D 1073741824))
  (sizes (B 32768) (D 65535))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (define (nrm b) (sqrt (sum e 0 D (* (X b e) (X b e)))))
  (ensures (Y b d) (/ (X b d) (nrm b))))
