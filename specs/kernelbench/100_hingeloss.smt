; KernelBench level 1, problem 100: torch.mean(torch.clamp(1 - predictions * targets, min=0)) with
; predictions (batch_size, 32768) and targets (batch_size,).
(spec kb100_hingeloss
  (doc "Hinge loss, mean over every element of the broadcast product: targets (shape (B,)) broadcast against predictions (B, N) along the LAST dim, so T[n] multiplies P[b][n] (broadcasting needs N = B, as in the problem, where batch_size = 32768 = input_shape[0]); L = (sum over b, n of max(1 - P[b][n] T[n], 0)) / (B N), a single value.")
  (dims B N)
  (assume (= N B) (<= (* B N) 1073741824))
  (tensor P f32 (B N) in)
  (tensor T f32 (B) in)
  (tensor L f32 () out)
  (ensures (L) (/ (sum b 0 B (sum n 0 N (max (- 1.0 (* (P b n) (T n))) 0.0))) (* B N)))
  (sizes (B 32768) (N 32768)))
