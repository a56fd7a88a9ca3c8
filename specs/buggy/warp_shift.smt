(spec warp_shift
  (dims G)
  (assume (<= G 65536))
  (tensor A f32 (G 32) in)
  (tensor B f32 (G 32) out)
  (ensures (B g t) (A g (mod (+ t 1) 32))))
