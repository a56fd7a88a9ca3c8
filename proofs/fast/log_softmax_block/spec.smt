; KernelBench level 1, problem 24 (24_LogSoftmax.py): torch.log_softmax(x, dim=1) (the constructor's default dim = 1).
(spec kb24_log_softmax
  (doc "LogSoftmax over dim 1 (each row), as torch computes it: Y[b][d] = (X[b][d] - m_b) - log(sum over k < D of exp(X[b][k] - m_b)), m_b the row's max. Not log(softmax(x)) (no division, no log of a quotient); equal over the reals to x - log(sum exp(x)).")
  (dims B D)
  (assume (<= D 2147482624) (<= (* B D) 2147483647)) ; one block per row: b * D + d, and d plus the block's stride, fit an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (define (rowmax b) (max-over k 0 D (X b k)))
  (define (logsum b) (log (sum k 0 D (exp (- (X b k) (rowmax b))))))
  (ensures (Y b d) (- (- (X b d) (rowmax b)) (logsum b))))
