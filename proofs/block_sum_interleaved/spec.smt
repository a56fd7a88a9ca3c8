; Per-block partial sums (as block_sum), reached by an interleaved tree: in round s the threads
; at multiples of 2s add the cell s further on.
(spec block_sum_interleaved
  (doc "Partial sums of consecutive chunks of 256 elements (the last chunk may be short).")
  (dims N)
  (assume (<= N 16777216))
  (define NB (div (+ N 255) 256))
  (tensor X f32 (N) in)
  (tensor Y f32 (NB) out)
  (ensures (Y b) (sum k (* 256 b) (min N (* 256 (+ b 1))) (X k))))
