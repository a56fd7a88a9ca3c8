; KernelBench level 1, problem 35: nn.GroupNorm(G, F) on an N x F x H x W tensor.
(spec kb35_groupnorm
  (doc "Y[n][c][h][w] = (X[n][c][h][w] - mean(n,c)) / sqrt(var(n,c) + 1e-5): the F channels are split into G groups of K = F/G consecutive channels, and each element is normalised by the mean and biased variance (divided by K H W) of its sample's group over the group's channels and (h, w), eps 1e-5 inside the square root. The group of c is the channels c2 with c2 div K = c div K; the sums run over all F channels and give every other channel an empty range of rows (an in-bounds way to say channels (c div K) K to (c div K) K + K - 1). The variance is written mean(x^2) - mean(x)^2, over the reals the same value as mean((x - mean)^2). The affine weight and bias (per channel) are their initial values 1 and 0, so they are left out. nn.GroupNorm requires G to divide F.")
  (dims N F G H W)
  (assume (= (mod F G) 0) (<= (* N F H W) 2147483647) (<= N 65535) (<= W 1073741824))
  (sizes (N 112) (F 64) (G 8) (H 512) (W 512))
  (define K (div F G))
  (tensor X f32 (N F H W) in)
  (tensor Y f32 (N F H W) out)
  ; rows of channel c2 that belong to c's group: all H of them when c2 is in the group, none otherwise
  (define (rows c2 c) (ite (= (div c2 K) (div c K)) H 0))
  (define (gsum n c) (sum c2 0 F (sum h 0 (rows c2 c) (sum w 0 W (X n c2 h w)))))
  (define (gsumsq n c) (sum c2 0 F (sum h 0 (rows c2 c) (sum w 0 W (* (X n c2 h w) (X n c2 h w))))))
  (ensures (Y n c h w)
    (let ((m (/ (gsum n c) (* K H W))))
      (/ (- (X n c h w) m) (sqrt (+ (- (/ (gsumsq n c) (* K H W)) (* m m)) 0.00001))))))
