; KernelBench level 1, problem 96: torch.nn.functional.smooth_l1_loss(predictions, targets),
; both (batch_size, 32768), defaults beta = 1.0 and reduction 'mean'.
(spec kb96_huberloss
  (doc "Smooth L1 loss with beta = 1 (the Huber loss with delta 1), mean over every element: z = |P[b][n] - T[b][n]|, loss = 0.5 z^2 / beta where z < beta, z - 0.5 beta otherwise (z = 1 takes the second branch; both give 0.5 there); L = (sum of the losses) / (B N), a single value.")
  (dims B N)
  (assume (<= (* B N) 1073741824))
  (tensor P f32 (B N) in)
  (tensor T f32 (B N) in)
  (tensor L f32 () out)
  (ensures (L)
    (/ (sum b 0 B (sum n 0 N
         (let ((z (abs (- (P b n) (T b n)))))
           (ite (< z 1.0) (/ (* 0.5 z z) 1.0) (- z (* 0.5 1.0))))))
       (* B N)))
  (sizes (B 32768) (N 32768)))
