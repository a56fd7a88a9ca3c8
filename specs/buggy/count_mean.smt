(spec count_mean
  (doc "mean of X over entries whose T is not -100")
  (dims B)
  (assume (<= B 65536))
  (tensor X f32 (B) in)
  (tensor T i64 (B) in)
  (tensor L f32 () out)
  (ensures (L) (/ (sum b 0 B (ite (= (T b) (- 100)) 0.0 (X b))) (sum b 0 B (ite (= (T b) (- 100)) 0 1)))))
