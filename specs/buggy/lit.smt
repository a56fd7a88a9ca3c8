(spec lit
  (dims N)
  (assume (<= N 65536))
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i) (* 100000000.0 (- (* (X i) 1.00000001) (X i)))))
