(spec copy1d2
  (dims N)
  (assume (<= N 1048576))
  (tensor A f32 (N) in)
  (tensor C f32 (N) out)
  (tensor D f32 (N) out)
  (ensures (C i) (A i))
  (ensures (D i) (A i)))
