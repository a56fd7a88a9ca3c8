; KernelBench level 1, problem 33: nn.BatchNorm2d(C) in training mode on an N x C x H x W tensor.
(spec kb33_batchnorm
  (doc "Y[n][c][h][w] = (X[n][c][h][w] - mean(c)) / sqrt(var(c) + 1e-5): a freshly built nn.BatchNorm2d is in training mode, so it normalises with the batch statistics of each channel c over (n, h, w) (not the running statistics), with the biased variance (divided by N H W), eps 1e-5 inside the square root. The variance is written mean(x^2) - mean(x)^2, over the reals the same value as mean((x - mean)^2). The affine weight and bias are their initial values 1 and 0, so they are left out; the update of the running mean and variance is a side effect on the module's buffers, not part of the output, and is not modelled.")
  (dims N C H W)
  (assume (<= (* N C H W) 2147483647) (<= C 65535) (<= W 1073741824))
  (sizes (N 64) (C 64) (H 512) (W 512))
  (tensor X f32 (N C H W) in)
  (tensor Y f32 (N C H W) out)
  (define (mean c) (/ (sum n 0 N (sum h 0 H (sum w 0 W (X n c h w)))) (* N H W)))
  (define (sumsq c) (sum n 0 N (sum h 0 H (sum w 0 W (* (X n c h w) (X n c h w))))))
  (ensures (Y n c h w)
    (let ((m (mean c)))
      (/ (- (X n c h w) m) (sqrt (+ (- (/ (sumsq c) (* N H W)) (* m m)) 0.00001))))))
