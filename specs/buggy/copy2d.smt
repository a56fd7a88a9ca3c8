(spec copy2d
  (dims K N)
  (assume (<= K 64) (<= N 65536))
  (tensor A f32 (K N) in)
  (tensor B f32 (K N) out)
  (ensures (B k n) (A k n)))
