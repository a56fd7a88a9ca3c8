; KernelBench level 1, problem 36: x / sqrt(mean(x^2, dim=1, keepdim=True) + eps), eps = 1e-5.
(spec kb36_rmsnorm
  (doc "Y[b][c][h][w] = X[b][c][h][w] / sqrt(ms(b,h,w) + 1e-5), ms the mean of X^2 over the F features (dim 1) at (b, h, w): an RMS norm over the channel dim of a 4-D tensor (not the last dim), with no learned gain, eps 1e-5 inside the square root.")
  (dims B F H W)
  (assume (<= (* B F H W) 2147483647) (<= H 65535) (<= B 65535))
  (sizes (B 112) (F 64) (H 512) (W 512))
  (tensor X f32 (B F H W) in)
  (tensor Y f32 (B F H W) out)
  (define (ms b h w) (/ (sum c 0 F (* (X b c h w) (X b c h w))) F))
  (ensures (Y b c h w) (/ (X b c h w) (sqrt (+ (ms b h w) 0.00001)))))
