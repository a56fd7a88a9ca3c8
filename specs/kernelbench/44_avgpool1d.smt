; KernelBench level 1, problem 44: nn.AvgPool1d(kernel_size=8, stride=1, padding=4).
(spec kb44_avgpool1d
  (doc "Y[b][c][o] = (sum over k < KS of X[b][c][o*ST - PAD + k], taps outside [0, L) counting 0) / KS: PyTorch's defaults count_include_pad=True (the zero padding is part of every window, so the divisor is KS even at the borders) and ceil_mode False (output length floor((L + 2 PAD - KS) / ST) + 1, every window inside the padded input). PyTorch requires PAD <= KS / 2 and an output length >= 1.")
  (dims B C L KS ST PAD)
  (assume (<= (* 2 PAD) KS) (>= (+ L (* 2 PAD)) KS)
          (<= B 65535) (<= C 65535) (<= KS 1024) (<= ST 1024) (<= PAD 512) (<= L 1073741824)
          (<= (* B C (+ L 1)) 2147483647))
  (define OL (+ (div (- (+ L (* 2 PAD)) KS) ST) 1))
  (define (pos o k) (+ (- (* o ST) PAD) k))
  (tensor X f32 (B C L) in)
  (tensor Y f32 (B C OL) out)
  (ensures (Y b c o)
    (/ (sum k 0 KS (ite (and (<= 0 (pos o k)) (< (pos o k) L)) (X b c (pos o k)) 0.0)) KS))
  (sizes (B 64) (C 128) (L 65536) (KS 8) (ST 1) (PAD 4)))
