; KernelBench level 1, problem 94: torch.mean((predictions - targets) ** 2), both (batch_size, 32768).
(spec kb94_mseloss
  (doc "Mean squared error over every element: L = (sum over b, n of (P[b][n] - T[b][n])^2) / (B N), a single value (0-dimensional tensor).")
  (dims B N)
  (assume (<= (* B N) 1073741824))
  (tensor P f32 (B N) in)
  (tensor T f32 (B N) in)
  (tensor L f32 () out)
  (ensures (L) (/ (sum b 0 B (sum n 0 N (* (- (P b n) (T b n)) (- (P b n) (T b n))))) (* B N)))
  (sizes (B 32768) (N 32768)))
