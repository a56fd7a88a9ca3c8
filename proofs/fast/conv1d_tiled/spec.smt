; "valid" 1D convolution (cross-correlation, as in deep learning).
(spec conv1d
  (doc "Y[i] = sum over k < K of X[i + k] W[k], for the N - K + 1 positions where the filter fits.")
  (dims N K)
  (assume (>= N K) (<= N 1048576) (<= K 1024))
  (define OUT (+ (- N K) 1))
  (tensor X f32 (N) in)
  (tensor W f32 (K) in)
  (tensor Y f32 (OUT) out)
  (ensures (Y i) (sum k 0 K (* (X (+ i k)) (W k)))))
