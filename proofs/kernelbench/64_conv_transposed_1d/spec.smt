; KernelBench level 1, problem 64: nn.ConvTranspose1d(in_channels, out_channels, kernel_size)
; with the defaults stride=1, padding=0, output_padding=0, groups=1, dilation=1, bias=False.
(spec kb64_conv_transposed_1d
  (doc "Transposed 1-D convolution (the gradient of Conv1d w.r.t. its input), NCL layout, weight (CI, CO, K) as PyTorch stores it for ConvTranspose1d (in-channels first, not out-channels). Stride 1, padding 0, output_padding 0, dilation 1, one group, no bias: all PyTorch defaults, literals here. Output length L + K - 1 (= (L - 1) * 1 - 2 * 0 + 1 * (K - 1) + 0 + 1). Y[n][co][o] = sum over ci < CI, k < K of X[n][ci][o - k] Wt[ci][co][k], a term present only where 0 <= o - k < L (a gather, not a scatter; the weight is not flipped, the index is o - k, not o + k).")
  (dims B CI CO L K)
  (assume (<= B 65535) (<= CO 65535) (<= CI 65536) (<= K 1024) (<= L 16777216)
          (<= (* B CI L) 1099511627776) (<= (* B CO (+ L K)) 1099511627776) (<= (* CI CO K) 1099511627776))
  (define OL (+ L (- K 1)))
  (tensor X f32 (B CI L) in)
  (tensor Wt f32 (CI CO K) in)
  (tensor Y f32 (B CO OL) out)
  (ensures (Y n co o)
    (sum ci 0 CI (sum k 0 K
      (let ((t (- o k)))
        (ite (and (<= 0 t) (< t L)) (* (X n ci t) (Wt ci co k)) 0.0)))))
  (sizes (B 64) (CI 128) (CO 128) (L 65536) (K 3)))
