; KernelBench level 1, problem 79: nn.ConvTranspose1d(in_channels, out_channels, kernel_size,
; stride=2, padding=1, dilation=2, bias=False) (output_padding 0, groups 1: defaults).
(spec kb79_conv_transposed_1d_strided_dilated
  (doc "Transposed 1-D convolution, NCL layout, weight (CI, CO, K) (ConvTranspose1d's layout: in-channels first). Stride S, padding P, dilation DIL (constructor arguments, dims); output_padding 0 and one group (defaults, literals); no bias. Output length (L - 1) S - 2 P + DIL (K - 1) + 1. Y[n][co][o] = sum over ci < CI, k < K of X[n][ci][i] Wt[ci][co][k] where o + P - k DIL = i S with 0 <= i < L: a tap contributes only when o + P - k DIL is a multiple of S whose quotient is an input position (the gather form of the scatter Y[i S - P + k DIL] += X[i] W[k]); padding P crops the full output, it is not zero-padding of the input.")
  (dims B CI CO L K S P DIL)
  (assume (<= B 65535) (<= CO 65535) (<= CI 65536) (<= K 1024) (<= L 16777216)
          (<= S 64) (<= DIL 64) (<= P 1024)
          (>= (+ (* (- L 1) S) (* DIL (- K 1)) 1) (+ (* 2 P) 1))
          (<= (* B CI L) 1099511627776) (<= (* B CO (+ (* L S) (* DIL K))) 1099511627776)
          (<= (* CI CO K) 1099511627776))
  (define OL (+ (- (* (- L 1) S) (* 2 P)) (* DIL (- K 1)) 1))
  (tensor X f32 (B CI L) in)
  (tensor Wt f32 (CI CO K) in)
  (tensor Y f32 (B CO OL) out)
  (ensures (Y n co o)
    (sum ci 0 CI (sum k 0 K
      (let ((t (+ o P (- (* k DIL)))))
        (ite (and (= (mod t S) 0) (<= 0 (div t S)) (< (div t S) L))
             (* (X n ci (div t S)) (Wt ci co k)) 0.0)))))
  (sizes (B 16) (CI 32) (CO 64) (L 131072) (K 3) (S 2) (P 1) (DIL 2)))
