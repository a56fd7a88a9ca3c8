; "valid" 2D convolution, one channel (cross-correlation).
(spec conv2d
  (doc "Y[i][j] = sum over a < KH, b < KW of X[i + a][j + b] W[a][b], where the filter fits.")
  (dims H W KH KW)
  (assume (>= H KH) (>= W KW) (<= H 4096) (<= W 4096) (<= KH 16) (<= KW 16))
  (define OH (+ (- H KH) 1))
  (define OW (+ (- W KW) 1))
  (tensor X f32 (H W) in)
  (tensor Wt f32 (KH KW) in)
  (tensor Y f32 (OH OW) out)
  (ensures (Y i j) (sum a 0 KH (sum b 0 KW (* (X (+ i a) (+ j b)) (Wt a b))))))
