; KernelBench level 1, problem 98: torch.nn.functional.kl_div(torch.log(predictions), targets,
; reduction='batchmean'), both (batch_size, 16384).
(spec kb98_kldivloss
  (doc "KL divergence with log_target False and reduction 'batchmean': pointwise xlogy(T, T) - T log(P), where xlogy(t, t) is 0 for t = 0 and t log t otherwise (the input given to kl_div is log(P)); L = (sum over every element) / B (the batch size, dim 0; not the element count as 'mean' would give), a single value.")
  (dims B N)
  (assume (<= (* B N) 1073741824))
  (tensor P f32 (B N) in)
  (tensor T f32 (B N) in)
  (tensor L f32 () out)
  (ensures (L)
    (/ (sum b 0 B (sum n 0 N
         (- (ite (= (T b n) 0.0) 0.0 (* (T b n) (log (T b n))))
            (* (T b n) (log (P b n))))))
       B))
  (sizes (B 16384) (N 16384)))
