; Numerically stable softmax of each row.
(spec softmax
  (doc "Row-wise softmax: Y[r][c] = exp(X[r][c] - max_r) / sum over the row of exp(X[r][k] - max_r).")
  (dims R C)
  (assume (<= R 65535) (<= C 16384))
  (tensor X f32 (R C) in)
  (tensor Y f32 (R C) out)
  (define (rowmax r) (max-over c 0 C (X r c)))
  (define (denom r) (sum c 0 C (exp (- (X r c) (rowmax r)))))
  (ensures (Y r c) (/ (exp (- (X r c) (rowmax r))) (denom r))))
