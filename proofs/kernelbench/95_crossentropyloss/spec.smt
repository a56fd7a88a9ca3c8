; KernelBench level 1, problem 95: torch.nn.functional.cross_entropy(predictions, targets) with
; predictions (batch_size, num_classes) f32 logits and targets (batch_size,) int64 class ids.
(spec kb95_crossentropyloss
  (doc "Mean cross entropy with class-index targets and PyTorch's defaults (weight None, ignore_index -100, reduction 'mean', label_smoothing 0): per row b, loss_b = -log_softmax(X[b])[T[b]] = log(sum over c of exp(X[b][c] - m_b)) + m_b - X[b][T[b]], m_b the row max; L = (sum over b of w_b loss_b) / (sum over b of w_b), w_b = 0 where T[b] = -100 (ignored) and 1 otherwise: the mean over the rows kept, as nll_loss's total weight. The logit X[b][T[b]] is read as the sum over c of (c = T[b] ? X[b][c] : 0), which is X[b][T[b]] for every target PyTorch accepts (0 <= T[b] < C) and keeps every read in bounds: the spec language cannot assume the targets' values, and for a target outside [0, C) other than -100 (PyTorch raises an error) the spec takes 0 for it. No row kept (every target -100): 0 / 0, no real value (PyTorch gives nan).")
  (dims B C)
  (assume (<= B 1073741824) (<= C 1073741824) (<= (* B C) 2147483647))
  (tensor X f32 (B C) in)
  (tensor T i64 (B) in)
  (tensor L f32 () out)
  (define (rowmax b) (max-over c 0 C (X b c)))
  (define (lse b) (+ (log (sum c 0 C (exp (- (X b c) (rowmax b))))) (rowmax b)))
  (define (picked b) (sum c 0 C (ite (= c (T b)) (X b c) 0.0)))
  ; PyTorch's nll_loss weights each row by w_b = (T[b] != ignore_index) and divides by the total weight
  (define (w b) (ite (= (T b) (- 100)) 0.0 1.0))
  (ensures (L) (/ (sum b 0 B (* (w b) (- (lse b) (picked b)))) (sum b 0 B (w b))))
  (sizes (B 32768) (C 4096)))
