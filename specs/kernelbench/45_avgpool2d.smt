; KernelBench level 1, problem 45: nn.AvgPool2d(kernel_size=11) (stride None = kernel_size, padding 0).
(spec kb45_avgpool2d
  (doc "Y[b][c][i][j] = (sum over u, v < KS of X[b][c][i*KS + u][j*KS + v]) / (KS KS): the problem passes only kernel_size, so the stride defaults to kernel_size (non-overlapping windows) and the padding to 0 (a literal here: every tap is inside the image, count_include_pad changes nothing); ceil_mode False: output extents floor((H - KS) / KS) + 1 and floor((W - KS) / KS) + 1 (rows and columns past the last whole window are dropped: 2048 = 186 * 11 + 2).")
  (dims B C H W KS)
  (assume (>= H KS) (>= W KS) (<= B 65535) (<= C 65535) (<= KS 1024) (<= H 1073741824) (<= W 1073741824)
          (<= (* B C H W) 1099511627776))
  (define OH (+ (div (- H KS) KS) 1))
  (define OW (+ (div (- W KS) KS) 1))
  (tensor X f32 (B C H W) in)
  (tensor Y f32 (B C OH OW) out)
  (ensures (Y b c i j)
    (/ (sum u 0 KS (sum v 0 KS (X b c (+ (* i KS) u) (+ (* j KS) v)))) (* KS KS)))
  (sizes (B 16) (C 64) (H 2048) (W 2048) (KS 11)))
