; KernelBench level 1, problem 92: "exclusive cumsum" of a (batch_size, 32768) tensor, as the
; problem's code computes it: torch.cumsum(torch.cat((zeros(B, 1), x), dim=1)[:-1], dim=1).
(spec kb92_cumsum_exclusive
  (doc "Exclusive prefix sum along dim 1 with the shape the problem's code gives it: a zero column is prepended (B x (N+1)), then [:-1] slices dim 0, dropping the LAST ROW (not the last column), so the output is (B-1) x (N+1): Y[b][j] = X[b][0] + ... + X[b][j-1] (0 for j = 0, the full row sum for j = N) for b < B-1. Needs B >= 2 for a non-empty output.")
  (dims B N)
  (assume (>= B 2) (<= B 65536) (<= N 1073741824) (<= (* B (+ N 1)) 2147483647))
  (tensor X f32 (B N) in)
  (tensor Y f32 ((- B 1) (+ N 1)) out)
  (ensures (Y b j) (sum k 0 j (X b k)))
  (sizes (B 32768) (N 32768)))
