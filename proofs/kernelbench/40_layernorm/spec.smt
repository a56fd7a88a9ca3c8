; KernelBench level 1, problem 40: nn.LayerNorm((F, H, W)) on an N x F x H x W tensor.
(spec kb40_layernorm
  (doc "Y[n][c][h][w] = (X[n][c][h][w] - mean(n)) / sqrt(var(n) + 1e-5): layer norm over the last three dims (F, H, W) together, one mean and one biased variance (divided by F H W, not F H W - 1) per sample n, eps 1e-5 inside the square root. The variance is written mean(x^2) - mean(x)^2, over the reals the same value as mean((x - mean)^2). The elementwise affine weight and bias are their initial values 1 and 0 (a freshly built nn.LayerNorm), so they are left out.")
  (dims N F H W)
  (assume (<= (* N F H W) 2147483647) (<= N 65535) (<= W 1073741824))
  (sizes (N 16) (F 64) (H 256) (W 256))
  (tensor X f32 (N F H W) in)
  (tensor Y f32 (N F H W) out)
  (define (mean n) (/ (sum c 0 F (sum h 0 H (sum w 0 W (X n c h w)))) (* F H W)))
  (define (sumsq n) (sum c 0 F (sum h 0 H (sum w 0 W (* (X n c h w) (X n c h w))))))
  (ensures (Y n c h w)
    (let ((m (mean n)))
      (/ (- (X n c h w) m) (sqrt (+ (- (/ (sumsq n) (* F H W)) (* m m)) 0.00001))))))
