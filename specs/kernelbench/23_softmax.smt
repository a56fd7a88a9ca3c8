; KernelBench level 1, problem 23 (23_Softmax.py): torch.softmax(x, dim=1) on a (batch_size, dim) tensor.
(spec kb23_softmax
  (doc "Softmax over dim 1 (each row): Y[b][d] = exp(X[b][d] - m_b) / sum over k < D of exp(X[b][k] - m_b), m_b the row's max. Subtracting the max is how torch computes it; over the reals it equals exp(x) / sum exp(x), stated this way because exp is uninterpreted.")
  (dims B D)
  (assume (<= D 2147482624) (<= (* B D) 2147483647)) ; one block per row: b * D + d, and d plus the block's stride, fit an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (define (rowmax b) (max-over k 0 D (X b k)))
  (define (denom b) (sum k 0 D (exp (- (X b k) (rowmax b)))))
  (ensures (Y b d) (/ (exp (- (X b d) (rowmax b))) (denom b))))
