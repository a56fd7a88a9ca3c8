; Inclusive prefix sum of a vector that fits one block.
(spec scan_block
  (doc "Y[i] = X[0] + ... + X[i], for N <= 256.")
  (dims N)
  (assume (<= N 256))
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i) (sum k 0 (+ i 1) (X k))))
