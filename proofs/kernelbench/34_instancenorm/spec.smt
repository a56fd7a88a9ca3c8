; KernelBench level 1, problem 34: nn.InstanceNorm2d(C) on an N x C x H x W tensor.
(spec kb34_instancenorm
  (doc "Y[n][c][h][w] = (X[n][c][h][w] - mean(n,c)) / sqrt(var(n,c) + 1e-5): each (sample, channel) plane normalised by its own mean and biased variance (divided by H W) over (h, w), eps 1e-5 inside the square root. nn.InstanceNorm2d's defaults: affine=False (no weight or bias) and track_running_stats=False (batch statistics in training and evaluation alike).")
  (dims N C H W)
  (assume (<= (* N C H W) 2147483647) (<= N 65535) (<= W 1073741824))
  (sizes (N 112) (C 64) (H 512) (W 512))
  (tensor X f32 (N C H W) in)
  (tensor Y f32 (N C H W) out)
  (define (mean n c) (/ (sum h 0 H (sum w 0 W (X n c h w))) (* H W)))
  (ensures (Y n c h w)
    (let ((m (mean n c)))
      (/ (- (X n c h w) m)
         (sqrt (+ (/ (sum h2 0 H (sum w2 0 W (* (- (X n c h2 w2) m) (- (X n c h2 w2) m)))) (* H W)) 0.00001))))))
