; KernelBench level 1, problem 37: x / torch.norm(x, p='fro') on a 4-D tensor.
(spec kb37_frobenius
  (doc "Y[b][c][h][w] = X[b][c][h][w] / sqrt(sum of X^2 over the whole tensor): every element divided by the Frobenius (L2) norm of the entire tensor, one scalar for all of it (no eps, so an all-zero tensor divides by zero).")
  (dims B F H W)
  (assume (<= (* B F H W) 2147483647) (<= W 1073741824))
  (sizes (B 112) (F 64) (H 512) (W 512))
  (tensor X f32 (B F H W) in)
  (tensor Y f32 (B F H W) out)
  (define ss (sum b 0 B (sum c 0 F (sum h 0 H (sum w 0 W (* (X b c h w) (X b c h w)))))))
  (ensures (Y b c h w) (/ (X b c h w) (sqrt ss))))
