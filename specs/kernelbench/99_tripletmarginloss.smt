; KernelBench level 1, problem 99: torch.nn.TripletMarginLoss(margin=1.0) on anchor, positive and
; negative, each (batch_size, 8192); defaults p = 2, eps = 1e-6, swap False, reduction 'mean'.
(spec kb99_tripletmarginloss
  (doc "Triplet margin loss: per row b, d(x, y) = pairwise_distance(x, y, p=2, eps=1e-6) = || x - y + eps ||_2 (eps added to every difference, inside the norm), loss_b = max(d(A_b, P_b) - d(A_b, N_b) + 1.0, 0) (margin 1.0); L = (sum of loss_b) / B, a single value. eps is PyTorch's double 1e-6 added to f32 tensors (as the f32 nearest 1e-6).")
  (dims B D)
  (assume (<= (* B D) 1073741824))
  (tensor A f32 (B D) in)
  (tensor P f32 (B D) in)
  (tensor Ng f32 (B D) in)
  (tensor L f32 () out)
  (define (dpos b) (sqrt (sum d 0 D (let ((x (+ (- (A b d) (P b d)) 0.000001))) (* x x)))))
  (define (dneg b) (sqrt (sum d 0 D (let ((x (+ (- (A b d) (Ng b d)) 0.000001))) (* x x)))))
  (ensures (L) (/ (sum b 0 B (max (+ (- (dpos b) (dneg b)) 1.0) 0.0)) B))
  (sizes (B 32768) (D 8192)))
