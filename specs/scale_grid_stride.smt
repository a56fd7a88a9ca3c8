(spec scale_grid_stride
  (doc "Y = alpha X, for vectors of any length (the kernel uses a fixed grid and a grid-stride loop).")
  (dims N)
  (scalar alpha f32)
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i) (* alpha (X i))))
