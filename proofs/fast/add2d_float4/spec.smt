(spec add2d
  (doc "Elementwise sum of two M x N matrices, on a 2D grid.")
  (dims M N)
  (assume (<= M 16384) (<= N 16384))
  (tensor A f32 (M N) in)
  (tensor B f32 (M N) in)
  (tensor C f32 (M N) out)
  (ensures (C i j) (+ (A i j) (B i j))))
