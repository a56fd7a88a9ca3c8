; Per-block partial sums: block b sums X[256 b .. 256 b + 255] (clipped at N).
(spec block_sum
  (doc "Partial sums of consecutive chunks of 256 elements (the last chunk may be short).")
  (dims N)
  (assume (<= N 16777216))
  (define NB (div (+ N 255) 256))
  (tensor X f32 (N) in)
  (tensor Y f32 (NB) out)
  (ensures (Y b) (sum k (* 256 b) (min N (* 256 (+ b 1))) (X k))))
